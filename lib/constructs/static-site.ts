import fs from 'node:fs';
import path from 'node:path';
import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods,
  CacheCookieBehavior,
  CachedMethods,
  CacheHeaderBehavior,
  CachePolicy,
  CacheQueryStringBehavior,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  SecurityPolicyProtocol,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { routes } from '#functions/routes.ts';
import { ORIGIN_HEADER } from '#middleware/origin.ts';
import { accessLogBucket } from './access-logs.ts';
import { acknowledgeGeneratedWildcards } from './nag.ts';

/** The SPA's runtime configuration, `/config.json` (web/src/lib/config.ts reads it; same keys as the outputs). */
export interface WebConfig {
  readonly Region: string;
  readonly UserPoolId: string;
  readonly UserPoolClientId: string;
  /** The pages distribution (https://..., no trailing slash): a published page is `${PagesUrl}/p/<slug>`. */
  readonly PagesUrl: string;
}

export interface StaticSiteProps {
  /** Host name of the HTTP API (its own custom domain, or `<id>.execute-api.<region>.amazonaws.com`) behind `/api/*`. */
  readonly apiDomain: string;
  /** The value this distribution adds as `x-origin-verify` on its way to the API (decision 0028). */
  readonly originSecret: string;
  readonly webConfig: WebConfig;
  /** The built SPA; deployed when it exists (`npm run build`), otherwise only config.json is. */
  readonly distDir: string;
  readonly domain?: { readonly name: string; readonly certificateArn: string };
  /** ARN of a CLOUDFRONT-scope WAF web ACL (us-east-1) for the distribution; none only with `-c waf=false`. */
  readonly webAclArn?: string;
  /** The course files bucket's https origin: the browser PUTs upload parts there with presigned URLs. */
  readonly filesOrigin?: string;
}

/**
 * Rewrites client-side routes (no file extension in the last path segment) to the SPA shell, and `/` to
 * landing.html, the shell with the marketing page prerendered into it (web/vite.config.ts `prerenderLanding`), so
 * that page is on screen before its scripts run. Missing files (/assets/x.js) still get S3's error and API errors
 * pass untouched: no error-response mapping swallows them.
 */
export const spaFallbackCode = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri === '/') {
    request.uri = '/landing.html';
  } else if (uri.lastIndexOf('.') <= uri.lastIndexOf('/')) {
    request.uri = '/index.html';
  }
  return request;
}`;

export const immutableCacheControl = 'public, max-age=31536000, immutable';

/**
 * The path patterns CloudFront caches under `/api/` (and `/v1/openapi.json`): those of the routes with a `cacheControl` in functions/routes.ts
 * (`/api/public/courses/{courseId}` -> `/api/public/courses/*`). Other methods on the same paths (a course's checkout
 * and view) pass through uncached, as CloudFront caches GET and HEAD only.
 */
export const cachedApiPaths = (): string[] => [
  ...new Set(
    routes
      .filter((route) => route.cacheControl !== undefined)
      .map((route) => (route.path.includes('{') ? `${route.path.slice(0, route.path.indexOf('{'))}*` : route.path)),
  ),
];

/**
 * One origin for the browser: a private S3 bucket (origin access control) for the SPA, `/api/*` and `/v1/*` to the HTTP API
 * uncached with every viewer header but Host, security headers on everything, access logs for both.
 */
export class StaticSite extends Construct {
  readonly bucket: Bucket;
  readonly distribution: Distribution;
  readonly url: string;

  constructor(scope: Construct, id: string, props: StaticSiteProps) {
    super(scope, id);
    const region = Stack.of(this).region;

    const logs = accessLogBucket(this);

    // Retained rather than auto-emptied: no extra custom-resource function, and nothing in it is irreplaceable.
    this.bucket = new Bucket(this, 'Site', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: logs,
      serverAccessLogsPrefix: 'site/',
      removalPolicy: RemovalPolicy.RETAIN,
    });

    const spaFallback = new CloudFrontFunction(this, 'SpaFallback', {
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Serve /index.html for extension-less paths (client-side routes)',
      code: FunctionCode.fromInline(spaFallbackCode),
    });

    const appCsp = [
      "default-src 'self'",
      "script-src 'self'",
      // Radix and React set inline styles; no inline scripts are allowed. The landing-page preview, an
      // <iframe sandbox srcdoc>, inherits this policy, so its <style> and style attributes need 'unsafe-inline' too.
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: https:",
      "font-src 'self' data:",
      // The files bucket: upload parts go straight to S3 (videos and attachments then play or download through
      // presigned GETs, which media-src https: and plain links already allow).
      `connect-src 'self' https://cognito-idp.${region}.amazonaws.com${props.filesOrigin ? ` ${props.filesOrigin}` : ''}`,
      // Video lessons (functions/contracts/courses.ts parseVideoUrl): exactly the two privacy-enhanced players may
      // be framed; a lesson's direct .mp4/.webm file may sit on any https host.
      'frame-src https://www.youtube-nocookie.com https://player.vimeo.com',
      'media-src https:',
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "object-src 'none'",
    ].join('; ');
    const securityHeaders = (overrideCsp: boolean) => ({
      contentSecurityPolicy: { contentSecurityPolicy: appCsp, override: overrideCsp },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
      referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
      strictTransportSecurity: { accessControlMaxAge: Duration.days(730), includeSubdomains: true, override: true },
    });
    const siteHeaders = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Security headers for the SPA',
      securityHeadersBehavior: securityHeaders(true),
    });
    // The API's answers get the app's CSP unless they bring their own: the public landing page's sandboxing CSP
    // (functions/contracts/landing.ts PUBLIC_PAGE_CSP) stays on it even when it is fetched through this origin.
    const apiHeaders = new ResponseHeadersPolicy(this, 'ApiSecurityHeaders', {
      comment: 'Security headers for the API; an answer\'s own Content-Security-Policy is kept',
      securityHeadersBehavior: securityHeaders(false),
    });

    // One origin for the API, with the header that proves a request came through here (the API refuses others).
    const apiOrigin = new HttpOrigin(props.apiDomain, {
      protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [OriginSslPolicy.TLS_V1_2],
      customHeaders: { [ORIGIN_HEADER]: props.originSecret },
    });
    const api = {
      origin: apiOrigin,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      // The API's own host name must reach it, so every viewer header except Host (CloudFront-Viewer-Address
      // included: what a view or a click is counted per visitor by).
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: apiHeaders,
      compress: true,
    };
    // The API's own Cache-Control decides (its errors say no-store); the key is the path and query, nothing of the
    // viewer's (these routes are public: no cookie or Authorization header changes their answer).
    const apiCache = new CachePolicy(this, 'ApiPublicCache', {
      comment: 'Public API pages: as long as their Cache-Control says (nothing without one), keyed by path and query',
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.hours(1),
      cookieBehavior: CacheCookieBehavior.none(),
      headerBehavior: CacheHeaderBehavior.none(),
      queryStringBehavior: CacheQueryStringBehavior.all(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Course platform: SPA + /api',
      defaultRootObject: 'index.html',
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: logs,
      ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
      logFilePrefix: 'cloudfront/',
      ...(props.domain
        ? {
            domainNames: [props.domain.name],
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
            certificate: Certificate.fromCertificateArn(this, 'Certificate', props.domain.certificateArn),
          }
        : {}),
      defaultBehavior: {
        origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        // Honours each object's Cache-Control: immutable for /assets/*, no-cache for the rest (set at upload).
        cachePolicy: CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: siteHeaders,
        compress: true,
        functionAssociations: [{ function: spaFallback, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        // The public pages the API marks cacheable, first: CloudFront takes the first pattern that matches.
        ...Object.fromEntries(cachedApiPaths().map((pattern) => [pattern, { ...api, cachePolicy: apiCache, cachedMethods: CachedMethods.CACHE_GET_HEAD }])),
        '/api/*': { ...api, cachePolicy: CachePolicy.CACHING_DISABLED },
        // The public API (issue 31): API keys in the Authorization header, forwarded as /api/* forwards tokens.
        '/v1/*': { ...api, cachePolicy: CachePolicy.CACHING_DISABLED },
      },
    });
    this.url = `https://${props.domain?.name ?? this.distribution.distributionDomainName}`;

    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'The platform sells to creators worldwide: no geographic restriction by design.',
    });
    if (!props.webAclArn) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR2',
        reason: 'WAF switched off on purpose with -c waf=false (a cheap sandbox); the API keeps its stage and route throttling and Cognito authorization. Deployments people use keep the default, waf=true.',
      });
    }
    if (!props.domain) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason: 'Without a custom domain the default *.cloudfront.net certificate is used and CloudFront fixes its minimum TLS version; with domainName/certificateArn the distribution uses TLSv1.2_2021.',
      });
    }

    this.deploy(props);
  }

  /**
   * Hashed assets first (immutable, a year), then index.html, the other root files and config.json (no-cache),
   * so a new index.html never points at assets not yet uploaded. Without pruning, the previous release's assets
   * stay available to browsers still running it.
   */
  private deploy(props: StaticSiteProps): void {
    const common = {
      destinationBucket: this.bucket,
      prune: false,
      memoryLimit: 512,
      logGroup: new LogGroup(this, 'DeploymentLogs', {
        retention: RetentionDays.ONE_MONTH,
        removalPolicy: RemovalPolicy.DESTROY,
      }),
    };
    const built = fs.existsSync(path.join(props.distDir, 'index.html'));
    const assetsDir = path.join(props.distDir, 'assets');
    const assets =
      built && fs.existsSync(assetsDir)
        ? new BucketDeployment(this, 'DeployAssets', {
            ...common,
            sources: [Source.asset(assetsDir)],
            destinationKeyPrefix: 'assets/',
            cacheControl: [CacheControl.fromString(immutableCacheControl)],
          })
        : undefined;
    const site = new BucketDeployment(this, 'DeploySite', {
      ...common,
      sources: [
        ...(built ? [Source.asset(props.distDir, { exclude: ['assets', 'assets/**'] })] : []),
        // AppUrl: the app's own origin. The same index.html is a creator's storefront on their custom domain (decision
        // 0055): on any other host the SPA looks the host up, and its account links come back here.
        Source.jsonData('config.json', { ...props.webConfig, AppUrl: this.url }),
      ],
      cacheControl: [CacheControl.noCache()],
      distribution: this.distribution,
      distributionPaths: ['/*'],
    });
    if (assets) site.node.addDependency(assets);

    // The deployments share one CDK-provided handler function (Python, AWS-managed logging policy, S3 wildcards).
    const stack = Stack.of(this);
    for (const handler of stack.node.children.filter((c) => c.node.id.startsWith('Custom::CDKBucketDeployment'))) {
      Validations.of(handler).acknowledge(
        {
          id: 'AwsSolutions-L1',
          reason: 'CDK-provided BucketDeployment handler: CDK chooses and updates its runtime.',
        },
        {
          id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
          reason: 'CDK-provided BucketDeployment handler: its role is created by CDK with the basic execution policy.',
        },
      );
      acknowledgeGeneratedWildcards(
        handler,
        'CDK-provided BucketDeployment handler: copies from the CDK asset bucket into this site bucket (S3 object wildcards on those two buckets) and invalidates this distribution.',
      );
    }
  }
}
