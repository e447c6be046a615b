import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '#functions/routes.ts';
import { cachedApiPaths, immutableCacheControl, spaFallbackCode } from '#lib/constructs/static-site.ts';
import { appDistributionOf, resourcesOf, synthPlatform, testRegion, unacknowledgedNagFindings } from './synth-platform.ts';

// AWS managed policy ids (stable across accounts).
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';

// A stand-in build so these tests do not depend on `npm run build` having run.
const distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
fs.mkdirSync(path.join(distDir, 'assets'));
fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><script src="/assets/index-abc123.js"></script>');
fs.writeFileSync(path.join(distDir, 'assets', 'index-abc123.js'), 'console.log(1)');
afterAll(() => fs.rmSync(distDir, { recursive: true, force: true }));

let app: ReturnType<typeof synthPlatform>['app'];
let template: Template;
let distribution: Record<string, unknown>;
beforeAll(() => {
  const platform = synthPlatform({ distDir });
  app = platform.app;
  template = Template.fromStack(platform.web);
  distribution = appDistributionOf(template);
});

const spaFallback = new Function(`${spaFallbackCode}; return handler;`)() as (event: {
  request: { uri: string };
}) => { uri: string };

describe('the web stack', () => {
  it('sends /api/* and /v1/* (the public API) to the HTTP API uncached, with all methods and every viewer header but Host', () => {
    const behaviors = distribution['CacheBehaviors'] as Record<string, unknown>[];
    for (const [behavior, pattern] of [[behaviors.at(-2), '/api/*'], [behaviors.at(-1), '/v1/*']] as const) {
      expect(behavior).toEqual(
        expect.objectContaining({
          PathPattern: pattern,
          AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
          CachePolicyId: CACHING_DISABLED,
          OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
          ViewerProtocolPolicy: 'https-only',
        }),
      );
    }
    const origins = distribution['Origins'] as { DomainName: unknown; CustomOriginConfig?: unknown }[];
    expect(JSON.stringify(origins)).toContain('execute-api');
  });

  it("caches the public GETs the route table marks cacheable (course, bundle, membership and creator pages, issuer, status list, the OpenAPI document) by the API's own Cache-Control, before /api/* and /v1/*", () => {
    const behaviors = distribution['CacheBehaviors'] as Record<string, unknown>[];
    const cached = behaviors.slice(0, -2);
    expect(cachedApiPaths().sort()).toEqual([
      '/api/public/bundles/*',
      '/api/public/certificate-status-list',
      '/api/public/certificate-status-list/*',
      '/api/public/courses/*',
      '/api/public/creators/*',
      '/api/public/issuer',
      '/api/public/issuer/keys/*',
      '/api/public/memberships/*',
      '/v1/openapi.json',
    ]);
    expect(cached.map((b) => b['PathPattern']).sort()).toEqual(cachedApiPaths().sort());
    for (const behavior of cached) {
      expect(behavior).toMatchObject({
        // The course's, the bundle's and the membership's checkouts and the course's view are POSTs on the same paths: they pass, uncached (CloudFront caches GET and HEAD).
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
        CachedMethods: ['GET', 'HEAD'],
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
        TargetOriginId: behaviors.at(-1)!['TargetOriginId'],
      });
      expect(behavior['CachePolicyId']).not.toBe(CACHING_DISABLED);
    }
    const [policy] = Object.values(resourcesOf(template, 'AWS::CloudFront::CachePolicy'))
      .map((p) => p.Properties['CachePolicyConfig'] as Record<string, unknown>)
      .filter((p) => String(p['Comment']).startsWith('Public API pages'));
    // Nothing is kept that the API did not say may be (its errors say no-store); nothing of the viewer's is in the key.
    expect(policy).toMatchObject({ MinTTL: 0, DefaultTTL: 0, MaxTTL: 3600 });
    expect(policy!['ParametersInCacheKeyAndForwardedToOrigin']).toMatchObject({
      CookiesConfig: { CookieBehavior: 'none' },
      HeadersConfig: { HeaderBehavior: 'none' },
    });
    for (const route of routes.filter((r) => r.cacheControl)) {
      expect(route, route.name).toMatchObject({ method: 'GET', access: 'public' });
      expect(route.cacheControl, route.name).toMatch(/^public, max-age=\d+, s-maxage=\d+/);
    }
  });

  it("adds its own x-origin-verify to the API origin of each distribution, from generated secrets, one for the app and one for the pages", () => {
    const web = template.toJSON() as { Resources: Record<string, { Type: string; Properties: Record<string, unknown> }> };
    const secrets = Object.entries(web.Resources).filter(([, r]) => r.Type === 'AWS::SecretsManager::Secret');
    expect(secrets).toHaveLength(2);
    for (const [, secret] of secrets) expect(secret.Properties['GenerateSecretString']).toMatchObject({ ExcludePunctuation: true, PasswordLength: 48 });
    const headerOf = (config: Record<string, unknown>) =>
      JSON.stringify(
        (config['Origins'] as { CustomOriginConfig?: unknown; OriginCustomHeaders?: { HeaderName: string; HeaderValue: unknown }[] }[])
          .filter((o) => o.CustomOriginConfig)
          .map((o) => o.OriginCustomHeaders),
      );
    const pagesConfig = Object.values(resourcesOf(template, 'AWS::CloudFront::Distribution'))
      .map((d) => d.Properties['DistributionConfig'] as Record<string, unknown>)
      .find((c) => c !== distribution)!;
    const [appSecret, pagesSecret] = [secrets.find(([id]) => id.startsWith('OriginSecret'))![0], secrets.find(([id]) => id.startsWith('PagesOriginSecret'))![0]];
    expect(headerOf(distribution)).toContain('"HeaderName":"x-origin-verify"');
    expect(headerOf(distribution)).toContain(appSecret);
    expect(headerOf(distribution)).not.toContain(pagesSecret);
    expect(headerOf(pagesConfig)).toContain('"HeaderName":"x-origin-verify"');
    expect(headerOf(pagesConfig)).toContain(pagesSecret);
    expect(headerOf(pagesConfig)).not.toContain(appSecret);
    // No value in the template: a reference CloudFormation resolves at deployment.
    expect(headerOf(distribution)).toContain('resolve:secretsmanager');
  });

  it('keeps the execute-api endpoint without an API domain (CloudFront needs one to reach it); ApiUrl is the app, /api through CloudFront', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { DisableExecuteApiEndpoint: false });
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(outputs['ApiUrl']!.Value).toEqual(outputs['WebUrl']!.Value);
  });

  it('reads the SPA bucket through origin access control, never publicly', () => {
    // The app distribution's and the custom domains' (decision 0055): both read the same SPA bucket, signed.
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 2);
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always' }),
    });
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      LoggingConfiguration: Match.objectLike({ LogFilePrefix: 'site/' }),
    });
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('has no error-response mapping that would turn API errors into index.html', () => {
    expect(distribution['CustomErrorResponses']).toBeUndefined();
  });

  it('rewrites / to the prerendered /landing.html and other extension-less paths to /index.html, in a viewer-request function of the default behaviour', () => {
    const behavior = distribution['DefaultCacheBehavior'] as { FunctionAssociations: { EventType: string }[] };
    expect(behavior.FunctionAssociations).toEqual([expect.objectContaining({ EventType: 'viewer-request' })]);
    const rewrite = (uri: string) => spaFallback({ request: { uri } }).uri;
    expect(rewrite('/')).toBe('/landing.html');
    expect(rewrite('/courses/01H/lessons')).toBe('/index.html');
    expect(rewrite('/v1.2/settings')).toBe('/index.html');
    expect(rewrite('/assets/index-abc123.js')).toBe('/assets/index-abc123.js');
    expect(rewrite('/config.json')).toBe('/config.json');
  });

  it('adds security headers to every response', () => {
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: {
        SecurityHeadersConfig: Match.objectLike({
          StrictTransportSecurity: Match.objectLike({ Override: true }),
          ContentTypeOptions: { Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ContentSecurityPolicy: Match.objectLike({ Override: true }),
        }),
      },
    });
    const behaviors = [distribution['DefaultCacheBehavior'], ...(distribution['CacheBehaviors'] as unknown[])];
    for (const b of behaviors) expect(b).toHaveProperty('ResponseHeadersPolicyId');
  });

  it('uploads hashed assets as immutable and the shell and config.json as no-cache', () => {
    const deployments = Object.values(resourcesOf(template, 'Custom::CDKBucketDeployment')).map((d) => d.Properties);
    const metadata = deployments.map((d) => d['SystemMetadata']);
    expect(metadata).toEqual(
      expect.arrayContaining([{ 'cache-control': immutableCacheControl }, { 'cache-control': 'no-cache' }]),
    );
    const assets = deployments.find((d) => JSON.stringify(d['SystemMetadata']).includes('immutable'))!;
    expect(assets['DestinationBucketKeyPrefix']).toBe('assets/');
    expect(deployments.every((d) => d['Prune'] === false)).toBe(true);
  });

  it('generates config.json with the keys the SPA reads, filled from the data stack at deploy time', () => {
    const site = Object.values(resourcesOf(template, 'Custom::CDKBucketDeployment'))
      .map((d) => d.Properties)
      .find((d) => JSON.stringify(d['SystemMetadata']).includes('no-cache'))!;
    const markers = (site['SourceMarkers'] as Record<string, unknown>[]).find((m) => Object.keys(m).length > 0)!;
    const assetDir = app.synth().directory;
    const configs = fs
      .readdirSync(assetDir)
      .map((entry) => path.join(assetDir, entry, 'config.json'))
      .filter((file) => fs.existsSync(file))
      .map((file) => JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>);
    expect(configs).toHaveLength(1);
    const config = configs[0]!;
    expect(Object.keys(config).sort()).toEqual(['AppUrl', 'PagesUrl', 'Region', 'UserPoolClientId', 'UserPoolId']);
    expect(config['Region']).toBe(testRegion); // known at synth: the cdk CLI always names the region
    expect(JSON.stringify(markers[config['UserPoolId']!])).toContain('UserPool');
    expect(JSON.stringify(markers[config['UserPoolClientId']!])).toContain('UserPoolWebClient');
    // https://<the pages distribution's domain, filled at deploy time>
    const pagesHost = /^https:\/\/(<<marker:[^>]+>>)$/.exec(config['PagesUrl']!)?.[1];
    expect(JSON.stringify(markers[pagesHost!])).toContain('PagesDistribution');
    // The app's own origin: the SPA on any other host (a creator's custom domain) links back to it.
    const appHost = /^https:\/\/(<<marker:[^>]+>>)$/.exec(config['AppUrl']!)?.[1];
    expect(JSON.stringify(markers[appHost!])).toContain('SiteDistribution');
  });

  it('outputs WebUrl, ApiUrl and PagesUrl', () => {
    const outputs = template.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['WebUrl', 'ApiUrl', 'PagesUrl']));
    expect(JSON.stringify(outputs['PagesUrl']!.Value)).toContain('PagesDistribution');
  });

  it('serves published pages from a distribution of their own, beside the app', () => {
    const distributions = Object.values(resourcesOf(template, 'AWS::CloudFront::Distribution')).map(
      (d) => (d.Properties['DistributionConfig'] as { Comment: string }).Comment,
    );
    expect(distributions.sort()).toEqual([
      'Course platform: SPA + /api',
      'Course platform: creators custom domains (multi-tenant; tenants made at run time)',
      'Course platform: published landing pages (/p/<slug>)',
    ]);
  });

  it("keeps an API answer's own Content-Security-Policy on /api/*, so a public page stays sandboxed on the app's origin too", () => {
    const policies = resourcesOf(template, 'AWS::CloudFront::ResponseHeadersPolicy');
    const csp = (ref: unknown) =>
      (policies[(ref as { Ref: string }).Ref]!.Properties['ResponseHeadersPolicyConfig'] as {
        SecurityHeadersConfig: { ContentSecurityPolicy: { ContentSecurityPolicy: string; Override: boolean } };
      }).SecurityHeadersConfig.ContentSecurityPolicy;
    const api = (distribution['CacheBehaviors'] as { ResponseHeadersPolicyId: unknown }[])[0]!;
    const site = distribution['DefaultCacheBehavior'] as { ResponseHeadersPolicyId: unknown };
    expect(csp(api.ResponseHeadersPolicyId).Override).toBe(false);
    expect(csp(site.ResponseHeadersPolicyId).Override).toBe(true);
    expect(csp(api.ResponseHeadersPolicyId).ContentSecurityPolicy).toEqual(csp(site.ResponseHeadersPolicyId).ContentSecurityPolicy);
  });

  it("allows inline styles but no inline script in the app's CSP: the landing preview (a sandboxed srcdoc iframe) inherits it", () => {
    const policy = Object.values(resourcesOf(template, 'AWS::CloudFront::ResponseHeadersPolicy'))
      .map((p) => p.Properties['ResponseHeadersPolicyConfig'] as { Comment: string; SecurityHeadersConfig: { ContentSecurityPolicy: { ContentSecurityPolicy: string } } })
      .find((p) => p.Comment === 'Security headers for the SPA')!;
    const directives = JSON.stringify(policy.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy);
    expect(directives).toContain("style-src 'self' 'unsafe-inline'");
    expect(directives).toContain("script-src 'self';");
    expect(directives).not.toMatch(/script-src[^;]*unsafe/);
  });

  it("lets video lessons frame exactly the two privacy-enhanced players and play https files, and nothing wider", () => {
    const policy = Object.values(resourcesOf(template, 'AWS::CloudFront::ResponseHeadersPolicy'))
      .map((p) => p.Properties['ResponseHeadersPolicyConfig'] as { Comment: string; SecurityHeadersConfig: { ContentSecurityPolicy: { ContentSecurityPolicy: string } } })
      .find((p) => p.Comment === 'Security headers for the SPA')!;
    // The files bucket's origin comes from the data stack: the policy is a join around that import.
    const value = policy.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy as unknown as string | { 'Fn::Join': [string, unknown[]] };
    const text = typeof value === 'string' ? value : value['Fn::Join'][1].map((part) => (typeof part === 'string' ? part : '<import>')).join('');
    const directives = text.split('; ');
    expect(directives.filter((d) => d.startsWith('frame-src'))).toEqual(['frame-src https://www.youtube-nocookie.com https://player.vimeo.com']);
    expect(directives.filter((d) => d.startsWith('media-src'))).toEqual(['media-src https:']);
    expect(directives).toContain("default-src 'self'");
    expect(directives).toContain("frame-ancestors 'none'");
    expect(directives).toContain("object-src 'none'");
  });
});

describe('the web stack with the API on its own domain', () => {
  it('disables the execute-api endpoint, maps the stage onto the domain, and points both distributions there', () => {
    const context = { apiOriginDomainName: 'api-origin.courses.example.com', apiOriginCertificateArn: 'arn:aws:acm:eu-west-2:123456789012:certificate/api' };
    const { web, api } = synthPlatform({ context, distDir });
    const webTemplate = Template.fromStack(web);
    webTemplate.hasResourceProperties('AWS::ApiGatewayV2::Api', { DisableExecuteApiEndpoint: true });
    webTemplate.hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
      DomainName: 'api-origin.courses.example.com',
      DomainNameConfigurations: [Match.objectLike({ CertificateArn: 'arn:aws:acm:eu-west-2:123456789012:certificate/api', EndpointType: 'REGIONAL' })],
    });
    Template.fromStack(api).resourceCountIs('AWS::ApiGatewayV2::ApiMapping', 1);
    const origins = Object.values(resourcesOf(webTemplate, 'AWS::CloudFront::Distribution')).flatMap(
      (d) => (d.Properties['DistributionConfig'] as { Origins: { DomainName: unknown; CustomOriginConfig?: unknown }[] }).Origins.filter((o) => o.CustomOriginConfig),
    );
    // The app's, the pages' and the custom domains' distributions.
    expect(origins.map((o) => o.DomainName)).toEqual(['api-origin.courses.example.com', 'api-origin.courses.example.com', 'api-origin.courses.example.com']);
    expect(Object.keys(webTemplate.toJSON().Outputs as object)).toContain('ApiOriginTarget');
    expect(unacknowledgedNagFindings(web)).toEqual([]);
  });

  it('needs both the domain and its certificate', () => {
    expect(() => synthPlatform({ context: { apiOriginDomainName: 'api-origin.courses.example.com' }, distDir })).toThrow(/go together/);
  });
});

describe('the web stack with a custom domain', () => {
  it('serves the domain with its certificate and TLS 1.2 at least, and the functions link to it', () => {
    const context = {
      domainName: 'courses.example.com',
      certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc',
    };
    const { web, api } = synthPlatform({ context, distDir });
    Template.fromStack(web).hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Aliases: ['courses.example.com'],
        ViewerCertificate: Match.objectLike({ MinimumProtocolVersion: 'TLSv1.2_2021' }),
      }),
    });
    expect(api.platform.appOrigin).toBe('https://courses.example.com');
  });
});
