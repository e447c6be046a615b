import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localOriginSecrets } from '#lib/local/secrets/generated.ts';
import { functionEnv } from '#lib/local/function-env.ts';
import type { Outputs } from '#lib/local/outputs.ts';
import { GOOGLE_DEMO_CLIENT_SECRET } from '#lib/local/google/stand-in.ts';
import { localSessionToken } from '#lib/local/secrets/stand-in.ts';
import { localSecretValues, secretIds } from '#lib/local/secrets/values.ts';

const outputs = {
  Region: 'eu-west-2', TableName: 't', DynamoDbEndpoint: 'http://127.0.0.1:8000', UserPoolId: 'local_1', CognitoEndpoint: 'http://127.0.0.1:9229',
  SesEndpoint: 'http://127.0.0.1:8005', StripeApiUrl: 'http://127.0.0.1:12111', StripeWebhookSecret: 'whsec_generated_here', BedrockEndpoint: 'http://127.0.0.1:8088',
  SecretsEndpoint: 'http://127.0.0.1:2773', FilesEndpoint: 'http://127.0.0.1:4569', FilesBucket: 'course-files', WebUrl: 'http://localhost:5173',
} as Outputs;

const realStripeHost = {
  STRIPE_SECRET_KEY: 'sk_test_real',
  STRIPE_WEBHOOK_SECRET: 'whsec_cli',
  STRIPE_PRICE_STARTER: 'price_a',
  STRIPE_PRICE_PRO: 'price_b',
  STRIPE_PRICE_CREDITS: 'price_c',
};

const secretValuesIn = (env: Record<string, string | undefined>, secrets: Record<string, string>) =>
  Object.entries(env).filter(([, value]) => Object.values(secrets).some((secret) => value?.includes(secret)));

describe('the handler environment of the local cloud', () => {
  it("checks the local pages origin's header always, the app's only with LOCAL_EDGE_ONLY=1 (tests call the gateway directly)", () => {
    const dir = mkdtempSync(join(tmpdir(), 'edge-env-'));
    const secrets = localOriginSecrets(dir);
    expect(secrets.app).not.toBe(secrets.pages);
    const env = functionEnv(outputs, dir, {});
    expect(env.PAGES_ORIGIN_SECRET).toBe(secrets.pages);
    expect(env).not.toHaveProperty('ORIGIN_SECRET');
    expect(functionEnv(outputs, dir, { LOCAL_EDGE_ONLY: '1' }).ORIGIN_SECRET).toBe(secrets.app);
    // Made once per data dir: a restart keeps them.
    expect(localOriginSecrets(dir)).toEqual(secrets);
  });

  it('points Stripe at the stand-in and names its secrets by id, holding no secret value', () => {
    const env = functionEnv(outputs, '/tmp/d', {});
    expect(env).toMatchObject({
      STRIPE_API_URL: 'http://127.0.0.1:12111',
      STRIPE_API_KEY_SECRET_ID: secretIds.stripeApiKey,
      STRIPE_WEBHOOK_SECRET_ID: secretIds.stripeWebhookSecret,
      STRIPE_CONNECT_WEBHOOK_SECRET_ID: secretIds.stripeConnectWebhookSecret,
      PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: '2773',
      AWS_SESSION_TOKEN: localSessionToken,
      STRIPE_PRICE_STARTER: 'price_starter_monthly',
      STRIPE_PRICE_PRO: 'price_pro_monthly',
      STRIPE_PRICE_CREDITS: 'price_credits_100',
    });
    expect(env).not.toHaveProperty('STRIPE_SECRET_KEY');
    expect(env).not.toHaveProperty('STRIPE_WEBHOOK_SECRET');
    expect(secretValuesIn(env, localSecretValues({ stripeWebhookSecret: outputs.StripeWebhookSecret, stripeConnectWebhookSecret: 'whsec_connect' }, {}))).toEqual([]);
  });

  it('points the custom domains at the DNS stand-in and the local edge, the app’s hosts being the platform’s own', () => {
    const env = functionEnv({ ...outputs, DnsResolver: '127.0.0.1:5353', PagesUrl: 'http://127.0.0.1:8089' }, '/tmp/d', {});
    expect(env).toMatchObject({ DNS_RESOLVER: '127.0.0.1:5353', EDGE_TENANTS_LOCAL: 'true', PLATFORM_HOSTNAMES: 'localhost,127.0.0.1', DOMAIN_CNAME_TARGET: expect.stringMatching(/\.localhost$/) });
  });

  it('sets every value the functions need explicitly, keeping the host LOG_LEVEL', () => {
    const env = functionEnv(outputs, '/tmp/d', { LOG_LEVEL: 'warn' });
    expect(env).toMatchObject({ MAIL_FROM: expect.stringContaining('@'), BEDROCK_MODEL_ID: expect.any(String), APP_ORIGIN: 'http://localhost:5173', LOG_LEVEL: 'warn' });
    expect(functionEnv(outputs, '/tmp/d', {}).LOG_LEVEL).toBe('info');
  });

  it('uses real Stripe (test mode) when asked: the real key goes to the secrets stand-in, never into the environment', () => {
    const env = functionEnv(outputs, '/tmp/d', realStripeHost);
    expect(env.STRIPE_API_URL).toBeUndefined();
    expect(env).toMatchObject({ STRIPE_PRICE_STARTER: 'price_a', STRIPE_PRICE_PRO: 'price_b', STRIPE_PRICE_CREDITS: 'price_c' });
    const secrets = localSecretValues({ stripeWebhookSecret: outputs.StripeWebhookSecret, stripeConnectWebhookSecret: 'whsec_connect' }, realStripeHost);
    // `stripe listen` signs what it forwards, Connect events too, with its one secret.
    expect(secrets).toEqual({
      [secretIds.stripeApiKey]: 'sk_test_real',
      [secretIds.stripeWebhookSecret]: 'whsec_cli',
      [secretIds.stripeConnectWebhookSecret]: 'whsec_cli',
      [secretIds.googleOAuthClientSecret]: GOOGLE_DEMO_CLIENT_SECRET,
    });
    expect(localSecretValues({ stripeWebhookSecret: 'x', stripeConnectWebhookSecret: 'y' }, { ...realStripeHost, STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_own' })).toMatchObject({
      [secretIds.stripeConnectWebhookSecret]: 'whsec_own',
    });
    expect(secretValuesIn(env, secrets)).toEqual([]);
  });

  it('serves the stand-in\'s test key and the generated webhook secret by default', () => {
    expect(localSecretValues({ stripeWebhookSecret: 'whsec_generated_here', stripeConnectWebhookSecret: 'whsec_connect_here' }, {})).toEqual({
      [secretIds.stripeApiKey]: 'sk_test_local',
      [secretIds.stripeWebhookSecret]: 'whsec_generated_here',
      [secretIds.stripeConnectWebhookSecret]: 'whsec_connect_here',
      [secretIds.googleOAuthClientSecret]: GOOGLE_DEMO_CLIENT_SECRET,
    });
  });

  it("points Google's token and Calendar calls at the stand-in, with the client secret only in the secrets stand-in", () => {
    const google = { ...outputs, GoogleCalendarApiUrl: 'http://127.0.0.1:8093/calendar/v3', GoogleOAuthUrl: 'http://127.0.0.1:8093/o/oauth2/v2/auth', GoogleTokenUrl: 'http://127.0.0.1:8093/token', GoogleOAuthClientId: 'local.apps.googleusercontent.com' };
    const env = functionEnv(google, '/tmp/d', {});
    expect(env).toMatchObject({
      GOOGLE_OAUTH_CLIENT_ID: 'local.apps.googleusercontent.com',
      GOOGLE_OAUTH_CLIENT_SECRET_ID: secretIds.googleOAuthClientSecret,
      GOOGLE_OAUTH_URL: 'http://127.0.0.1:8093/o/oauth2/v2/auth',
      GOOGLE_TOKEN_URL: 'http://127.0.0.1:8093/token',
      GOOGLE_CALENDAR_API_URL: 'http://127.0.0.1:8093/calendar/v3',
    });
    expect(JSON.stringify(env)).not.toContain(GOOGLE_DEMO_CLIENT_SECRET);
  });

  it('points the files adapter at the S3 emulator and its course-files bucket', () => {
    expect(functionEnv(outputs, '/tmp/d', {})).toMatchObject({ FILES_BUCKET: 'course-files', FILES_ENDPOINT: 'http://127.0.0.1:4569' });
  });

  it('refuses a real key without its webhook secret or its price ids', () => {
    expect(() => functionEnv(outputs, '/tmp/d', { STRIPE_SECRET_KEY: 'sk_test_real' })).toThrow(/STRIPE_WEBHOOK_SECRET/);
    expect(() => functionEnv(outputs, '/tmp/d', { ...realStripeHost, STRIPE_PRICE_PRO: '' })).toThrow(/STRIPE_PRICE_PRO/);
  });
});
