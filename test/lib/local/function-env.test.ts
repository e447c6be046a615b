import { describe, expect, it } from 'vitest';
import { functionEnv } from '#lib/local/function-env.ts';
import type { Outputs } from '#lib/local/outputs.ts';

const outputs = {
  Region: 'eu-west-2', TableName: 't', DynamoDbEndpoint: 'http://127.0.0.1:8000', UserPoolId: 'local_1', CognitoEndpoint: 'http://127.0.0.1:9229',
  SesEndpoint: 'http://127.0.0.1:8005', StripeApiUrl: 'http://127.0.0.1:12111', StripeWebhookSecret: 'whsec_local', BedrockEndpoint: 'http://127.0.0.1:8088',
  WebUrl: 'http://localhost:5173',
} as Outputs;

describe('the handler environment of the local cloud', () => {
  it('points Stripe at the stand-in by default', () => {
    expect(functionEnv(outputs, '/tmp/d', {})).toMatchObject({ STRIPE_API_URL: 'http://127.0.0.1:12111', STRIPE_SECRET_KEY: 'sk_test_local', STRIPE_WEBHOOK_SECRET: 'whsec_local' });
  });

  it('uses real Stripe (test mode) when a key, its webhook secret and price ids are given', () => {
    const env = functionEnv(outputs, '/tmp/d', { STRIPE_SECRET_KEY: 'sk_test_real', STRIPE_WEBHOOK_SECRET: 'whsec_cli', STRIPE_PRICE_STARTER: 'price_a' });
    expect(env.STRIPE_API_URL).toBeUndefined();
    expect(env).toMatchObject({ STRIPE_SECRET_KEY: 'sk_test_real', STRIPE_WEBHOOK_SECRET: 'whsec_cli', STRIPE_PRICE_STARTER: 'price_a' });
  });

  it('refuses a real key without its webhook secret', () => {
    expect(() => functionEnv(outputs, '/tmp/d', { STRIPE_SECRET_KEY: 'sk_test_real' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
  });
});
