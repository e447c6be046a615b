import { resolve } from 'node:path';
import { configKeys, resetConfig, type Config } from '#functions/config.ts';
import type { Outputs } from './outputs.ts';

type FunctionEnv = Partial<Record<keyof Config, string>> & { AWS_ACCESS_KEY_ID: string; AWS_SECRET_ACCESS_KEY: string };

/**
 * The environment every handler gets locally: the gateway, the trigger bridge, the scheduler and
 * `npm run invoke` all use this one function, so a handler sees the same config wherever it runs here.
 */
export const functionEnv = (outputs: Outputs, dataDir: string, host: NodeJS.ProcessEnv = process.env): FunctionEnv => {
  const env: FunctionEnv = {
    AWS_REGION: outputs.Region,
    TABLE_NAME: outputs.TableName,
    DYNAMODB_ENDPOINT: outputs.DynamoDbEndpoint,
    USER_POOL_ID: outputs.UserPoolId,
    COGNITO_ENDPOINT: outputs.CognitoEndpoint,
    SES_ENDPOINT: outputs.SesEndpoint,
    STRIPE_API_URL: outputs.StripeApiUrl,
    STRIPE_SECRET_KEY: 'sk_test_local',
    STRIPE_WEBHOOK_SECRET: outputs.StripeWebhookSecret,
    BEDROCK_ENDPOINT: outputs.BedrockEndpoint,
    APP_ORIGIN: outputs.WebUrl,
    LOCAL_SECRETS_KEY_FILE: resolve(dataDir, 'secrets.key'),
    // The SDKs insist on credentials even against local endpoints.
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  };
  // Real Stripe (test mode) instead of the stand-in: a real secret key and the webhook secret that
  // `stripe listen --forward-to localhost:3001/api/webhooks/stripe` prints; the price ids as STRIPE_PRICE_*.
  const realKey = host['STRIPE_SECRET_KEY'];
  if (realKey && realKey !== 'sk_test_local') {
    const webhookSecret = host['STRIPE_WEBHOOK_SECRET'];
    if (!webhookSecret) throw new Error('STRIPE_SECRET_KEY is set: set STRIPE_WEBHOOK_SECRET too (from `stripe listen`).');
    delete env.STRIPE_API_URL;
    env.STRIPE_SECRET_KEY = realKey;
    env.STRIPE_WEBHOOK_SECRET = webhookSecret;
    for (const key of ['STRIPE_PRICE_STARTER', 'STRIPE_PRICE_PRO', 'STRIPE_PRICE_CREDITS'] as const) {
      if (host[key]) env[key] = host[key];
    }
  }
  const unknown = Object.keys(env).filter((k) => !k.startsWith('AWS_') && !configKeys.includes(k as keyof Config));
  if (unknown.length > 0) throw new Error(`functionEnv sets variables functions/config.ts does not read: ${unknown.join(', ')}`);
  return env;
};

/** Puts the handler environment into this process (handlers run in-process) and forgets the cached config. */
export const applyFunctionEnv = (env: Record<string, string | undefined>): void => {
  for (const [key, value] of Object.entries(env)) if (value !== undefined) process.env[key] = value;
  // Credentials from a developer's profile must not leak into local calls.
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_PROFILE;
  resetConfig();
};
