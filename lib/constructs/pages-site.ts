import { Duration, Validations } from 'aws-cdk-lib';
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
  OriginSslPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Construct } from 'constructs';
import { accessLogBucket } from './access-logs.ts';
import { PUBLIC_PAGE_CSP } from '#contracts/landing.ts';
import { routes } from '#functions/routes.ts';
import { ORIGIN_HEADER } from '#middleware/origin.ts';

export interface PagesSiteProps {
  /** Host name of the HTTP API (`<id>.execute-api.<region>.amazonaws.com`) that serves the published pages. */
  readonly apiDomain: string;
  /** The value this distribution adds as `x-origin-verify`: the page route answers only it (decision 0028). */
  readonly originSecret: string;
  /** ARN of a CLOUDFRONT-scope WAF web ACL (us-east-1): the app distribution's; none only with `-c waf=false`. */
  readonly webAclArn?: string;
}

/** `/api/public/pages/` from the route table, where a route is declared once. */
const publicPagesPrefix = (() => {
  const path = routes.find((route) => route.name === 'public-landing-page')?.path;
  if (!path?.endsWith('/{slug}')) throw new Error('functions/routes.ts has no public-landing-page route ending in /{slug}');
  return path.slice(0, -'{slug}'.length);
})();

const notFoundPage =
  '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Page not found</title></head>' +
  '<body><h1>Page not found</h1></body></html>\n';

/**
 * The pages distribution's viewer-request function: `/p/<slug>` becomes the API's `/api/public/pages/<slug>` (the
 * query string dropped), anything else is answered here with a small 404 page, so no other API route, and nothing
 * else at all, is reachable from this origin. The 404 carries the page headers itself. The local pages origin
 * (lib/local/pages/server.ts) applies the same rule.
 */
export const pagesRewriteCode = `var notFound = {
  statusCode: 404,
  statusDescription: 'Not Found',
  headers: {
    'content-type': { value: 'text/html; charset=utf-8' },
    'content-security-policy': { value: ${JSON.stringify(PUBLIC_PAGE_CSP)} },
    'x-content-type-options': { value: 'nosniff' },
    'referrer-policy': { value: 'no-referrer' },
    'cache-control': { value: 'public, max-age=60' }
  },
  body: { encoding: 'text', data: ${JSON.stringify(notFoundPage)} }
};
function handler(event) {
  var request = event.request;
  var match = /^\\/p\\/([a-z0-9-]{1,100})$/.exec(request.uri);
  if (!match) {
    return notFound;
  }
  request.uri = ${JSON.stringify(publicPagesPrefix)} + match[1];
  request.querystring = {};
  return request;
}`;

/**
 * The pages origin: a CloudFront distribution of its own for the published landing pages, so a page (creator
 * content, however well sanitized) never runs on the app's origin, next to its storage and cookies. It reads the
 * HTTP API's public page route, only GET and HEAD; a function rewrites `/p/<slug>` onto that route and refuses every
 * other path; the cache key is the path alone, and as nothing else is forwarded the API never sees a viewer's
 * cookie, Authorization header or query string. Every answer carries the page CSP (no script at all, a sandbox,
 * never framed), HSTS, nosniff and no referrer. Same WAF web ACL and the same kind of access logs as the app.
 */
export class PagesSite extends Construct {
  readonly distribution: Distribution;
  /** https://<distribution host>, no trailing slash: the SPA links to `${url}/p/<slug>`. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: PagesSiteProps) {
    super(scope, id);

    const logs = accessLogBucket(this);

    const rewrite = new CloudFrontFunction(this, 'PagePath', {
      runtime: FunctionRuntime.JS_2_0,
      comment: 'Serve /p/<slug> from the API public page route; 404 for anything else',
      code: FunctionCode.fromInline(pagesRewriteCode),
    });

    // The API answers Cache-Control: public, max-age=60, so an unpublished page is gone within a minute.
    const cachePolicy = new CachePolicy(this, 'ByPath', {
      comment: 'Published pages: the path is the whole cache key; no cookie, header or query string',
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(60),
      maxTtl: Duration.minutes(5),
      cookieBehavior: CacheCookieBehavior.none(),
      headerBehavior: CacheHeaderBehavior.none(),
      queryStringBehavior: CacheQueryStringBehavior.none(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });

    const headers = new ResponseHeadersPolicy(this, 'PageHeaders', {
      comment: 'Published pages: no script, sandboxed, never framed, no referrer',
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: PUBLIC_PAGE_CSP, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(730), includeSubdomains: true, override: true },
      },
    });

    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Course platform: published landing pages (/p/<slug>)',
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: logs,
      logFilePrefix: 'cloudfront/',
      ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
      defaultBehavior: {
        origin: new HttpOrigin(props.apiDomain, {
          protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
          originSslProtocols: [OriginSslPolicy.TLS_V1_2],
          // Its own value, not the app's: the page route answers only this one, so the app's /api path shows no page.
          customHeaders: { [ORIGIN_HEADER]: props.originSecret },
        }),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
        cachedMethods: CachedMethods.CACHE_GET_HEAD,
        cachePolicy,
        // No origin request policy: the origin gets what the cache key holds (the path) and its own Host.
        responseHeadersPolicy: headers,
        compress: true,
        functionAssociations: [{ function: rewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
      },
    });
    this.url = `https://${this.distribution.distributionDomainName}`;

    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason: 'Published pages are for the creators\' audiences worldwide: no geographic restriction by design.',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason: 'The pages origin uses its default *.cloudfront.net certificate, whose minimum TLS version CloudFront fixes; it has no custom domain.',
      },
    );
    if (!props.webAclArn) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR2',
        reason: 'WAF switched off on purpose with -c waf=false (a cheap sandbox); pages are cached by path and the API keeps its stage and route throttling. Deployments people use keep the default, waf=true.',
      });
    }
  }
}
