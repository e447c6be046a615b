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

  it('takes an alarm topic ARN or an email for the topic the stacks create, not both, and refuses anything else', () => {
    expect(settingsWith({})).not.toHaveProperty('alarmTopicArn');
    expect(settingsWith({ alarmTopicArn: 'arn:aws:sns:eu-west-2:123456789012:ops-alarms' }).alarmTopicArn).toBe(
      'arn:aws:sns:eu-west-2:123456789012:ops-alarms',
    );
    expect(settingsWith({ alarmEmail: 'ops@example.com' }).alarmEmail).toBe('ops@example.com');
    expect(() => settingsWith({ alarmTopicArn: 'ops-alarms' })).toThrow(/"alarmTopicArn" must be the ARN of a standard SNS topic/);
    expect(() => settingsWith({ alarmTopicArn: 'arn:aws:sns:eu-west-2:123456789012:ops.fifo' })).toThrow(/standard SNS topic/);
    expect(() => settingsWith({ alarmEmail: 'ops' })).toThrow(/"alarmEmail" must be an email address/);
    expect(() =>
      settingsWith({ alarmTopicArn: 'arn:aws:sns:eu-west-2:123456789012:ops-alarms', alarmEmail: 'ops@example.com' }),
    ).toThrow(/subscribe to that topic yourself/);
  });
});
