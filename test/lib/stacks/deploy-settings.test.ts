import { App } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { defaultDeploySettings, readDeploySettings } from '#lib/stacks/deploy-settings.ts';

const settingsWith = (context: Record<string, unknown>) => readDeploySettings(new App({ context }));

describe('deploy settings', () => {
  it('names two plain-string Stripe secrets by default and turns WAF on', () => {
    expect(settingsWith({})).toMatchObject({
      stripeApiKeySecretName: 'course-platform/stripe-api-key',
      stripeWebhookSecretName: 'course-platform/stripe-webhook-secret',
      waf: true,
    });
    expect(defaultDeploySettings.waf).toBe(true);
  });

  it('reads the waf flag as -c gives it (a string) or as cdk.json holds it (a boolean), and nothing else', () => {
    expect(settingsWith({ waf: 'false' }).waf).toBe(false);
    expect(settingsWith({ waf: false }).waf).toBe(false);
    expect(settingsWith({ waf: 'true' }).waf).toBe(true);
    expect(() => settingsWith({ waf: 'off' })).toThrow(/"waf" must be true or false/);
  });

  it('refuses a secret ARN or value where a secret name belongs', () => {
    expect(() =>
      settingsWith({ stripeApiKeySecretName: 'arn:aws:secretsmanager:eu-west-2:123456789012:secret:x-AbCdEf' }),
    ).toThrow(/"stripeApiKeySecretName" must be a Secrets Manager secret name/);
    expect(() => settingsWith({ stripeWebhookSecretName: 'whsec abc' })).toThrow(/"stripeWebhookSecretName"/);
  });

  it('fails on the retired single-secret settings instead of silently ignoring them', () => {
    expect(() => settingsWith({ stripeSecretName: 'course-platform/stripe' })).toThrow(/stripeApiKeySecretName/);
    expect(() => settingsWith({ stripeSecretVersionId: 'abc' })).toThrow(/no version to pin/);
  });
});
