import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_PAGE_CSP } from '#contracts/landing.ts';
import { PagesSite, pagesRewriteCode } from '#lib/constructs/pages-site.ts';
import { resourcesOf, unacknowledgedNagFindings } from '../stacks/synth-platform.ts';

const apiDomain = 'abc123.execute-api.eu-west-2.amazonaws.com';
const webAclArn = 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/edge/0123';

const pagesStack = (props: { webAclArn?: string } = {}) => {
  const app = new App();
  const stack = new Stack(app, 'Pages', { env: { region: 'eu-west-2' } });
  const site = new PagesSite(stack, 'Pages', { apiDomain, originSecret: 'pages-origin-value', ...props });
  return { stack, site, template: Template.fromStack(stack) };
};

type CfRequest = { uri: string; querystring: Record<string, unknown>; method?: string };
type CfResponse = { statusCode: number; headers: Record<string, { value: string }>; body: { encoding: string; data: string } };
const viewerRequest = new Function(`${pagesRewriteCode}; return handler;`)() as (event: { request: CfRequest }) => CfRequest | CfResponse;
const request = (uri: string, querystring: Record<string, unknown> = {}) => viewerRequest({ request: { uri, querystring } });

let stack: Stack;
let site: PagesSite;
let template: Template;
let distribution: Record<string, unknown>;
let behavior: Record<string, unknown>;
beforeAll(() => {
  ({ stack, site, template } = pagesStack({ webAclArn }));
  const distributions = Object.values(resourcesOf(template, 'AWS::CloudFront::Distribution'));
  expect(distributions).toHaveLength(1);
  distribution = distributions[0]!.Properties['DistributionConfig'] as Record<string, unknown>;
  behavior = distribution['DefaultCacheBehavior'] as Record<string, unknown>;
});

describe('the pages distribution', () => {
  it('reads only the HTTP API, over HTTPS, and only with GET and HEAD', () => {
    const origins = distribution['Origins'] as { DomainName: string; CustomOriginConfig: Record<string, unknown> }[];
    expect(origins).toEqual([
      expect.objectContaining({
        DomainName: apiDomain,
        CustomOriginConfig: expect.objectContaining({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] }),
      }),
    ]);
    expect(behavior).toMatchObject({ AllowedMethods: ['GET', 'HEAD'], CachedMethods: ['GET', 'HEAD'], ViewerProtocolPolicy: 'redirect-to-https' });
    expect(distribution['CacheBehaviors']).toBeUndefined();
  });

  it('rewrites /p/<slug> onto the public page route of the API, without the query string', () => {
    expect(request('/p/acme-academy', { utm_source: { value: 'mail' } })).toEqual({ uri: '/api/public/pages/acme-academy', querystring: {} });
    expect(request('/p/a1')).toMatchObject({ uri: '/api/public/pages/a1' });
  });

  it.each(['/', '/p/', '/p/acme/extra', '/p/Acme', '/p/acme%2F..%2Fhealth', '/api/health', '/api/public/pages/acme', '/index.html'])(
    'answers %s itself with a 404 page under the page CSP, so no other API route is reachable',
    (uri) => {
      const answer = request(uri) as CfResponse;
      expect(answer.statusCode).toBe(404);
      expect(answer.headers['content-security-policy']).toEqual({ value: PUBLIC_PAGE_CSP });
      expect(answer.headers['content-type']).toEqual({ value: 'text/html; charset=utf-8' });
      expect(answer.body).toEqual({ encoding: 'text', data: expect.stringContaining('<h1>Page not found</h1>') });
    },
  );

  it('runs the rewrite as a viewer-request function of the one behaviour', () => {
    expect(behavior['FunctionAssociations']).toEqual([expect.objectContaining({ EventType: 'viewer-request' })]);
    template.hasResourceProperties('AWS::CloudFront::Function', {
      FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }),
      FunctionCode: pagesRewriteCode,
    });
  });

  it('caches by path only and forwards no cookie, no header (so no Authorization) and no query string', () => {
    expect(behavior['OriginRequestPolicyId']).toBeUndefined();
    expect(behavior['ForwardedValues']).toBeUndefined();
    template.hasResourceProperties('AWS::CloudFront::CachePolicy', {
      CachePolicyConfig: Match.objectLike({
        DefaultTTL: 60,
        ParametersInCacheKeyAndForwardedToOrigin: Match.objectLike({
          CookiesConfig: { CookieBehavior: 'none' },
          HeadersConfig: { HeaderBehavior: 'none' },
          QueryStringsConfig: { QueryStringBehavior: 'none' },
        }),
      }),
    });
  });

  it('sends every page with the page CSP, HSTS, nosniff, no referrer and frame-options DENY, whatever the origin says', () => {
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: {
          ContentSecurityPolicy: { ContentSecurityPolicy: PUBLIC_PAGE_CSP, Override: true },
          ContentTypeOptions: { Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
          StrictTransportSecurity: Match.objectLike({ AccessControlMaxAgeSec: 730 * 24 * 3600, IncludeSubdomains: true, Override: true }),
        },
      }),
    });
    expect(PUBLIC_PAGE_CSP).toMatch(/^sandbox /);
    expect(PUBLIC_PAGE_CSP).not.toMatch(/script-src/);
    expect(PUBLIC_PAGE_CSP).toContain("default-src 'none'");
    expect(PUBLIC_PAGE_CSP).toContain("frame-ancestors 'none'");
  });

  it('logs every request to a bucket of its own and sits behind the given web ACL', () => {
    expect(distribution['Logging']).toMatchObject({ Prefix: 'cloudfront/' });
    expect(distribution['WebACLId']).toBe(webAclArn);
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: Match.objectLike({ BlockPublicAcls: true, RestrictPublicBuckets: true }),
      OwnershipControls: { Rules: [{ ObjectOwnership: 'ObjectWriter' }] },
    });
  });

  it('names its address without a trailing slash', () => {
    expect(site.url).toMatch(/^https:\/\/\$\{Token\[.+\]\}$/);
  });

  it('has no unacknowledged cdk-nag finding, with or without a web ACL', () => {
    expect(unacknowledgedNagFindings(stack)).toEqual([]);
    expect(unacknowledgedNagFindings(pagesStack().stack)).toEqual([]);
  });
});
