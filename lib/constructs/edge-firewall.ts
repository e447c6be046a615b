import { Stack } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import type { ErrorCode } from '#contracts/common.ts';

/**
 * Requests per client IP per 5 minutes on `/api/*` before WAF answers 429 for a while. A person clicking through the
 * app stays under one API call a second (<= 300 per window); 2000 leaves room for a classroom or an office behind
 * one NAT address and for the client's retries, and still stops one client from spending the API stage's shared
 * throttle (functions/routes.ts DEFAULT_THROTTLE) that everybody else needs.
 */
export const API_RATE_LIMIT_PER_5_MINUTES = 2000;

/**
 * Checkouts started per client IP per 5 minutes (`POST /api/public/<courses|bundles|...>/<id>/checkout`, every public
 * checkout together). A buyer starts one, maybe
 * three with a coupon typed twice; 30 leaves room for an office buying together behind one address. The route's
 * stage throttle (functions/routes.ts, sized for a launch's whole audience) is shared by everybody: this rule keeps
 * one client from spending it, or from creating Stripe sessions by the thousand.
 */
export const CHECKOUT_RATE_LIMIT_PER_5_MINUTES = 30;

/**
 * Requests per client IP per 5 minutes on the public, unauthenticated paths (`/api/public/*`, `/p/*`): pages, views,
 * clicks, certificates. A reader opens tens of them; 600 still lets a school's shared address through, and stops a
 * loop of GETs from making the cached pages' misses (and the counters' marks) its own.
 */
export const PUBLIC_RATE_LIMIT_PER_5_MINUTES = 600;

/**
 * The paths that rate limit counts: the app's API, and the pages distribution's published pages (`/p/<slug>`, the
 * same ACL), whose every unknown slug would otherwise reach the API uncounted. Cached pages count too, but a reader
 * opens a handful of them.
 */
export const RATE_LIMITED_PATH_PREFIXES = ['/api/', '/p/'] as const;

/**
 * Paths no WAF rule inspects or rate-limits: Stripe's webhook is authenticated by its signature before anything else
 * (functions/webhooks/stripe.ts), it carries customers' free text that a signature rule could mistake for an attack,
 * and a blocked or throttled event is a lost payment update. It arrives from Stripe's few addresses, in bursts.
 */
export const UNFILTERED_PATH_PREFIX = '/api/webhooks/';

/** The body of the rate-limit answer: the API's own error shape, so the web app shows it like any 429. */
export const rateLimitedBody = JSON.stringify({
  error: {
    code: 'RATE_LIMITED' satisfies ErrorCode,
    message: 'Too many requests from your network. Please wait a few minutes and try again.',
  },
});

export interface EdgeFirewallProps {
  /** Prefix of the CloudWatch metric names (one per rule and one for the ACL). */
  readonly metricPrefix: string;
}

/**
 * An AWS WAF web ACL for a CloudFront distribution (scope CLOUDFRONT, so its stack must be in us-east-1):
 * 1. a per-IP rate limit on `/api/*` and published pages `/p/*` (the SPA's files are cached by CloudFront and cost
 *    nothing to serve again);
 * 2. tighter per-IP limits on starting checkouts and on the public paths: the fairness the routes' shared stage
 *    throttles (functions/routes.ts) cannot give (decision 0028);
 * 3. AWS's common rule set (OWASP-style signatures), with its 8 KB body-size rule counting instead of blocking;
 * 4. AWS's known bad inputs (Log4Shell, Java deserialization, exploitable paths).
 * Everything else is allowed. Each rule publishes CloudWatch metrics and samples the requests it matches. The app's
 * distribution and the pages distribution (lib/constructs/pages-site.ts) share it.
 */
export class EdgeFirewall extends Construct {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: EdgeFirewallProps) {
    super(scope, id);
    if (Stack.of(this).region !== 'us-east-1') {
      throw new Error(`A CloudFront web ACL must be created in us-east-1, not in ${Stack.of(this).region}`);
    }
    const visibility = (name: string): CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
      metricName: `${props.metricPrefix}-${name}`,
    });
    const pathStartsWith = (prefix: string): CfnWebACL.StatementProperty => ({
      byteMatchStatement: {
        fieldToMatch: { uriPath: {} },
        positionalConstraint: 'STARTS_WITH',
        searchString: prefix,
        textTransformations: [{ priority: 0, type: 'NONE' }],
      },
    });
    const notWebhooks: CfnWebACL.StatementProperty = { notStatement: { statement: pathStartsWith(UNFILTERED_PATH_PREFIX) } };
    const managed = (name: string, priority: number, extra: Partial<CfnWebACL.ManagedRuleGroupStatementProperty> = {}) => ({
      name,
      priority,
      overrideAction: { none: {} },
      statement: {
        managedRuleGroupStatement: { vendorName: 'AWS', name, scopeDownStatement: notWebhooks, ...extra },
      },
      visibilityConfig: visibility(name),
    });

    /** A per-IP rate limit on what `scope` matches, answered 429 in the API's error shape. */
    const perIp = (name: string, priority: number, limit: number, scope: CfnWebACL.StatementProperty): CfnWebACL.RuleProperty => ({
      name,
      priority,
      action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: 'rate-limited' } } },
      statement: { rateBasedStatement: { limit, evaluationWindowSec: 300, aggregateKeyType: 'IP', scopeDownStatement: scope } },
      visibilityConfig: visibility(name),
    });

    this.webAcl = new CfnWebACL(this, 'WebAcl', {
      scope: 'CLOUDFRONT',
      description: 'Course platform edge: per-IP rate limits (API, checkout, public pages), AWS common rule set, known bad inputs',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('web-acl'),
      customResponseBodies: {
        'rate-limited': { contentType: 'APPLICATION_JSON', content: rateLimitedBody },
      },
      rules: [
        {
          // First: a flood is refused before any signature rule spends time on it.
          name: 'api-rate-limit-per-ip',
          priority: 0,
          action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: 'rate-limited' } } },
          statement: {
            rateBasedStatement: {
              limit: API_RATE_LIMIT_PER_5_MINUTES,
              evaluationWindowSec: 300,
              aggregateKeyType: 'IP',
              scopeDownStatement: {
                andStatement: {
                  statements: [{ orStatement: { statements: RATE_LIMITED_PATH_PREFIXES.map(pathStartsWith) } }, notWebhooks],
                },
              },
            },
          },
          visibilityConfig: visibility('api-rate-limit-per-ip'),
        },
        perIp('checkout-rate-per-ip', 1, CHECKOUT_RATE_LIMIT_PER_5_MINUTES, {
          andStatement: {
            statements: [
              { byteMatchStatement: { fieldToMatch: { method: {} }, positionalConstraint: 'EXACTLY', searchString: 'POST', textTransformations: [{ priority: 0, type: 'NONE' }] } },
              pathStartsWith('/api/public/'),
              {
                byteMatchStatement: {
                  fieldToMatch: { uriPath: {} },
                  positionalConstraint: 'ENDS_WITH',
                  searchString: '/checkout',
                  textTransformations: [{ priority: 0, type: 'NONE' }],
                },
              },
            ],
          },
        }),
        perIp('public-rate-per-ip', 2, PUBLIC_RATE_LIMIT_PER_5_MINUTES, { orStatement: { statements: [pathStartsWith('/api/public/'), pathStartsWith('/p/')] } }),
        managed('AWSManagedRulesCommonRuleSet', 3, {
          // The set blocks bodies over 8 KB; the API accepts up to 64 KiB (512 KiB for landing-page content) and
          // answers its own 413 per route (functions/middleware/http-route.ts). Counted, so its metric still shows
          // large bodies; the API stays the one that decides, with its own error shape.
          ruleActionOverrides: [{ name: 'SizeRestrictions_BODY', actionToUse: { count: {} } }],
        }),
        managed('AWSManagedRulesKnownBadInputsRuleSet', 4),
      ],
    });
  }

  get arn(): string {
    return this.webAcl.attrArn;
  }
}
