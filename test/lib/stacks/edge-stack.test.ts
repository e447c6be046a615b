import { App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBody } from '#contracts/common.ts';
import { routes } from '#functions/routes.ts';
import {
  API_RATE_LIMIT_PER_5_MINUTES,
  CHECKOUT_RATE_LIMIT_PER_5_MINUTES,
  PUBLIC_RATE_LIMIT_PER_5_MINUTES,
  RATE_LIMITED_PATH_PREFIXES,
  UNFILTERED_PATH_PREFIX,
} from '#lib/constructs/edge-firewall.ts';
import { createCoursePlatform } from '#lib/stacks/course-platform.ts';
import { readDeploySettings } from '#lib/stacks/deploy-settings.ts';
import { appDistributionOf, resourcesOf, synthPlatform, unacknowledgedNagFindings } from './synth-platform.ts';

type Rule = {
  Name: string;
  Priority: number;
  Action?: Record<string, unknown>;
  OverrideAction?: Record<string, unknown>;
  Statement: Record<string, Record<string, unknown>>;
};
const distributionsOf = (template: Template): Record<string, unknown>[] =>
  Object.values(resourcesOf(template, 'AWS::CloudFront::Distribution')).map(
    (d) => d.Properties['DistributionConfig'] as Record<string, unknown>,
  );
const acknowledgedOn = (construct: { node: { metadata: { type: string; data: unknown }[] } }): string[] =>
  construct.node.metadata
    .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
    .flatMap((m) => Object.keys(m.data as Record<string, string>))
    .map((key) => key.replace(/^Annotation::/, ''));

describe('edge protection, on by default', () => {
  let platform: ReturnType<typeof synthPlatform>;
  let acl: Record<string, unknown>;
  let rules: Rule[];
  beforeAll(() => {
    platform = synthPlatform();
    const acls = Object.values(resourcesOf(Template.fromStack(platform.edge!), 'AWS::WAFv2::WebACL'));
    expect(acls).toHaveLength(1);
    acl = acls[0]!.Properties;
    rules = acl['Rules'] as Rule[];
  });

  it('puts a CLOUDFRONT web ACL in its own stack in us-east-1, whatever the region of the others', () => {
    expect(platform.edge!.region).toBe('us-east-1');
    expect(platform.web.region).not.toBe('us-east-1');
    expect(acl['Scope']).toBe('CLOUDFRONT');
    expect(acl['DefaultAction']).toEqual({ Allow: {} });
  });

  it('attaches the ACL to the app, pages and custom-domain distributions by a weak cross-region reference (no custom resources)', () => {
    const web = Template.fromStack(platform.web);
    const distributions = distributionsOf(web);
    expect(distributions).toHaveLength(3);
    for (const distribution of distributions) {
      expect(distribution['WebACLId']).toEqual({
        'Fn::GetStackOutput': expect.objectContaining({ StackName: platform.edge!.stackName, Region: 'us-east-1' }),
      });
    }
    expect(JSON.stringify(web.toJSON())).not.toMatch(/CrossRegionExport|ExportsReader/);
    expect(JSON.stringify(Template.fromStack(platform.edge!).toJSON())).not.toMatch(/CrossRegionExport|ExportsWriter/);
    expect(platform.web.dependencies).toContain(platform.edge);
  });

  it('has exactly five rules: the per-IP rate limits first (API, checkout, public paths), then the common rule set and known bad inputs', () => {
    expect(rules.sort((a, b) => a.Priority - b.Priority).map((r) => r.Name)).toEqual([
      'api-rate-limit-per-ip',
      'checkout-rate-per-ip',
      'public-rate-per-ip',
      'AWSManagedRulesCommonRuleSet',
      'AWSManagedRulesKnownBadInputsRuleSet',
    ]);
    for (const rule of rules) expect(rule).toHaveProperty('VisibilityConfig.CloudWatchMetricsEnabled', true);
  });

  it('answers a client over the API rate limit with 429 in the API error shape, per IP over 5 minutes', () => {
    const rule = rules.find((r) => r.Name === 'api-rate-limit-per-ip')!;
    const rate = rule.Statement['RateBasedStatement']!;
    expect(rate).toMatchObject({ Limit: API_RATE_LIMIT_PER_5_MINUTES, AggregateKeyType: 'IP', EvaluationWindowSec: 300 });
    expect(RATE_LIMITED_PATH_PREFIXES).toEqual(['/api/', '/p/']);
    expect(JSON.stringify(rate['ScopeDownStatement'])).toContain('"SearchString":"/api/"');
    expect(JSON.stringify(rate['ScopeDownStatement'])).toContain('"SearchString":"/p/"');
    const response = (rule.Action as { Block: { CustomResponse: { ResponseCode: number; CustomResponseBodyKey: string } } })
      .Block.CustomResponse;
    expect(response.ResponseCode).toBe(429);
    const bodies = acl['CustomResponseBodies'] as Record<string, { ContentType: string; Content: string }>;
    const body = bodies[response.CustomResponseBodyKey]!;
    expect(body.ContentType).toBe('APPLICATION_JSON');
    expect(errorBody.parse(JSON.parse(body.Content)).error.code).toBe('RATE_LIMITED');
  });

  it('limits each IP to a few checkouts (POST .../checkout under /api/public/: a course’s, a bundle’s) and to a reader\'s share of the public paths, 429 in the API shape', () => {
    const checkout = rules.find((r) => r.Name === 'checkout-rate-per-ip')!;
    const rate = checkout.Statement['RateBasedStatement']!;
    expect(rate).toMatchObject({ Limit: CHECKOUT_RATE_LIMIT_PER_5_MINUTES, AggregateKeyType: 'IP', EvaluationWindowSec: 300 });
    expect(CHECKOUT_RATE_LIMIT_PER_5_MINUTES).toBeLessThan(API_RATE_LIMIT_PER_5_MINUTES / 10);
    const parts = (rate['ScopeDownStatement'] as { AndStatement: { Statements: { ByteMatchStatement: Record<string, unknown> }[] } }).AndStatement.Statements.map((st) => st.ByteMatchStatement);
    expect(parts).toEqual([
      expect.objectContaining({ FieldToMatch: { Method: {} }, PositionalConstraint: 'EXACTLY', SearchString: 'POST' }),
      expect.objectContaining({ FieldToMatch: { UriPath: {} }, PositionalConstraint: 'STARTS_WITH', SearchString: '/api/public/' }),
      expect.objectContaining({ FieldToMatch: { UriPath: {} }, PositionalConstraint: 'ENDS_WITH', SearchString: '/checkout' }),
    ]);
    // The routes the rule guards are where it looks: every public route that opens a Stripe Checkout.
    const publicCheckouts = routes.filter((r) => r.path.startsWith('/api/public/') && r.name.endsWith('-checkout'));
    expect(publicCheckouts.map((r) => r.name)).toEqual(expect.arrayContaining(['course-checkout', 'bundle-checkout']));
    for (const route of publicCheckouts) expect(route, route.name).toMatchObject({ method: 'POST', path: expect.stringMatching(/^\/api\/public\/.+\/checkout$/) });

    const publicPaths = rules.find((r) => r.Name === 'public-rate-per-ip')!.Statement['RateBasedStatement']!;
    expect(publicPaths).toMatchObject({ Limit: PUBLIC_RATE_LIMIT_PER_5_MINUTES, AggregateKeyType: 'IP', EvaluationWindowSec: 300 });
    expect(JSON.stringify(publicPaths['ScopeDownStatement'])).toContain('"SearchString":"/api/public/"');
    expect(JSON.stringify(publicPaths['ScopeDownStatement'])).toContain('"SearchString":"/p/"');
    for (const rule of [checkout, rules.find((r) => r.Name === 'public-rate-per-ip')!]) {
      expect(rule.Action).toEqual({ Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: 'rate-limited' } } });
    }
  });

  it('leaves the fairness to WAF: the public routes\' stage throttles are sized for a launch, far above one client\'s share', () => {
    const perSecond = (name: string) => routes.find((r) => r.name === name)!.throttle!.rate;
    // One client at its WAF limit is a fraction of a request a second: a launch's crowd is what the stage limits size for.
    for (const name of ['course-checkout', 'public-course', 'public-creator', 'referral-link', 'record-course-view', 'public-landing-page']) {
      expect(perSecond(name), name).toBeGreaterThanOrEqual(50);
    }
    expect(perSecond('course-checkout')).toBeLessThanOrEqual(100);
  });

  it("counts the common rule set's 8 KB body rule instead of blocking, so the API answers its own 413s", () => {
    const rule = rules.find((r) => r.Name === 'AWSManagedRulesCommonRuleSet')!;
    expect(rule.OverrideAction).toEqual({ None: {} });
    expect(rule.Statement['ManagedRuleGroupStatement']!['RuleActionOverrides']).toEqual([
      { Name: 'SizeRestrictions_BODY', ActionToUse: { Count: {} } },
    ]);
  });

  it("lets Stripe's signed webhooks through every rule, so no payment event is blocked or throttled", () => {
    const excluded = { NotStatement: { Statement: { ByteMatchStatement: expect.objectContaining({ SearchString: UNFILTERED_PATH_PREFIX }) } } };
    expect(UNFILTERED_PATH_PREFIX).toBe('/api/webhooks/');
    for (const name of ['AWSManagedRulesCommonRuleSet', 'AWSManagedRulesKnownBadInputsRuleSet']) {
      const statement = rules.find((r) => r.Name === name)!.Statement['ManagedRuleGroupStatement']!;
      expect(statement['ScopeDownStatement'], name).toEqual(excluded);
    }
    const rate = rules.find((r) => r.Name === 'api-rate-limit-per-ip')!.Statement['RateBasedStatement']!;
    expect((rate['ScopeDownStatement'] as { AndStatement: { Statements: unknown[] } }).AndStatement.Statements).toContainEqual(excluded);
  });

  it('needs no acknowledgement of the missing-WAF finding, and nag is clean in both stacks', () => {
    expect(acknowledgedOn(platform.web.site.distribution)).not.toContain('AwsSolutions-CFR2');
    expect(acknowledgedOn(platform.web.pages.distribution)).not.toContain('AwsSolutions-CFR2');
    expect(unacknowledgedNagFindings(platform.edge!)).toEqual([]);
    expect(unacknowledgedNagFindings(platform.web)).toEqual([]);
  });
});

describe('edge protection switched off with -c waf=false', () => {
  it('creates no Edge stack and no ACL, attaches none, and acknowledges the missing WAF with its reason', () => {
    const platform = synthPlatform({ context: { waf: 'false' } });
    expect(platform.edge).toBeUndefined();
    expect(platform.app.node.children.map((c) => c.node.id)).not.toContain('CoursePlatformEdge');
    const web = Template.fromStack(platform.web);
    expect(distributionsOf(web).map((d) => d['WebACLId'])).toEqual([undefined, undefined, undefined]);
    expect(appDistributionOf(web)).toBeDefined();
    expect(acknowledgedOn(platform.web.site.distribution)).toContain('AwsSolutions-CFR2');
    expect(acknowledgedOn(platform.web.pages.distribution)).toContain('AwsSolutions-CFR2');
    expect(unacknowledgedNagFindings(platform.web)).toEqual([]);
  });

  it('is what a synth without a known region must use, and says so', () => {
    const app = new App({ context: { 'aws:cdk:bundling-stacks': [] }, builtinCloudFormationValidation: false });
    expect(() => createCoursePlatform(app, { settings: readDeploySettings(app) })).toThrow(/-c waf=false/);
  });
});
