import { resolve } from 'node:path';
import { forgetSecrets } from '#adapters/secrets.ts';
import { configKeys, resetConfig, type Config } from '#functions/config.ts';
import type { Outputs } from './outputs.ts';
import { localSessionToken } from './secrets/stand-in.ts';
import { localJobQueueUrls } from './sqs/job-queues.ts';
import { secretIds } from './secrets/values.ts';
import { localEdgeOnly, localOriginSecrets } from './secrets/generated.ts';
import { stripeMode } from './stripe/mode.ts';

/** The name a local custom domain's CNAME points at (the DNS stand-in's records say so; the storefront entry answers by Host). */
export const LOCAL_CNAME_TARGET = 'storefront.course-platform.localhost';

type FunctionEnv = Partial<Record<keyof Config, string>> & { AWS_ACCESS_KEY_ID: string; AWS_SECRET_ACCESS_KEY: string };

/**
 * The environment every handler gets locally: the gateway, the trigger bridge, the scheduler and
 * `npm run invoke` all use this one function, so a handler sees the same config wherever it runs here.
 * As in the cloud, it holds no credential: the Stripe key and webhook secret are read by id through the secrets
 * stand-in (the Parameters and Secrets Lambda Extension's API), which the local cloud fills at start. The origin
 * header's values are here as they are in the cloud (decision 0028): they say which edge a request came through.
 */
export const functionEnv = (outputs: Outputs, dataDir: string, host: NodeJS.ProcessEnv = process.env): FunctionEnv => {
  if (!outputs.SecretsEndpoint) throw new Error('outputs.json has no SecretsEndpoint: it was written by an older local cloud; restart `npm start`.');
  const stripe = stripeMode(host);
  const origin = localOriginSecrets(dataDir);
  const env: FunctionEnv = {
    AWS_REGION: outputs.Region,
    TABLE_NAME: outputs.TableName,
    DYNAMODB_ENDPOINT: outputs.DynamoDbEndpoint,
    USER_POOL_ID: outputs.UserPoolId,
    COGNITO_ENDPOINT: outputs.CognitoEndpoint,
    SES_ENDPOINT: outputs.SesEndpoint,
    MAIL_FROM: 'Course Platform <no-reply@example.com>',
    // Real Stripe (test mode) when the developer asked for it (stripe/mode.ts), the stand-in otherwise.
    ...(stripe.kind === 'stand-in' ? { STRIPE_API_URL: outputs.StripeApiUrl } : {}),
    STRIPE_API_KEY_SECRET_ID: secretIds.stripeApiKey,
    STRIPE_WEBHOOK_SECRET_ID: secretIds.stripeWebhookSecret,
    STRIPE_CONNECT_WEBHOOK_SECRET_ID: secretIds.stripeConnectWebhookSecret,
    STRIPE_PRICE_STARTER: stripe.prices.starter,
    STRIPE_PRICE_PRO: stripe.prices.pro,
    STRIPE_PRICE_CREDITS: stripe.prices.credits,
    PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: new URL(outputs.SecretsEndpoint).port,
    // Lambda sets the session token of the function's role; the extension wants it back on every request.
    AWS_SESSION_TOKEN: localSessionToken,
    BEDROCK_ENDPOINT: outputs.BedrockEndpoint,
    BEDROCK_MODEL_ID: 'anthropic.claude-3-haiku-20240307-v1:0',
    // The S3 emulator; with FILES_ENDPOINT set, the files adapter uses s3rver's S3RVER credentials, path-style.
    FILES_BUCKET: outputs.FilesBucket,
    FILES_ENDPOINT: outputs.FilesEndpoint,
    // The Zoom stand-in (its fault proxy when faults are on).
    ZOOM_API_URL: outputs.ZoomApiUrl,
    ZOOM_OAUTH_URL: outputs.ZoomOAuthUrl,
    // The Microsoft stand-in (its fault proxy when faults are on).
    ...(outputs.GraphApiUrl ? { GRAPH_API_URL: outputs.GraphApiUrl, MICROSOFT_LOGIN_URL: outputs.MicrosoftLoginUrl } : {}),
    APP_ORIGIN: outputs.WebUrl,
    // Webhooks (decision 0053): the local cloud alone lets an endpoint be http://127.0.0.1:<port>, so tests can receive.
    WEBHOOK_ALLOW_LOCAL_HTTP: 'true',
    // A shorter first retry when the developer asks for one (docs/api.md "Webhooks"); 5 s otherwise.
    ...(host['WEBHOOK_FIRST_RETRY_DELAY_S'] ? { WEBHOOK_FIRST_RETRY_DELAY_S: host['WEBHOOK_FIRST_RETRY_DELAY_S'] } : {}),
    // The Google stand-in (lib/local/google/): the consent screen the browser opens, the token and Calendar URLs.
    ...(outputs.GoogleCalendarApiUrl
      ? {
          GOOGLE_OAUTH_CLIENT_ID: outputs.GoogleOAuthClientId,
          GOOGLE_OAUTH_CLIENT_SECRET_ID: secretIds.googleOAuthClientSecret,
          GOOGLE_OAUTH_URL: outputs.GoogleOAuthUrl,
          GOOGLE_TOKEN_URL: outputs.GoogleTokenUrl,
          GOOGLE_CALENDAR_API_URL: outputs.GoogleCalendarApiUrl,
        }
      : {}),
    // The local edge's header (decision 0028): the pages origin's always, the app's only with LOCAL_EDGE_ONLY=1.
    PAGES_ORIGIN_SECRET: origin.pages,
    ...(localEdgeOnly(host) ? { ORIGIN_SECRET: origin.app } : {}),
    LOCAL_SECRETS_KEY_FILE: resolve(dataDir, 'secrets.key'),
    // Certificates are signed by the KMS stand-in's key, through the same KMS client as in AWS.
    KMS_ENDPOINT: outputs.KmsEndpoint,
    CERTIFICATE_KEY_ID: outputs.CertificateKeyArn,
    // The job engine's queues (decision 0032) in the SQS stand-in: every handler here may start any sliced job's run.
    ...(outputs.SqsEndpoint ? { SQS_ENDPOINT: outputs.SqsEndpoint, JOB_QUEUE_URLS: JSON.stringify(localJobQueueUrls(outputs.SqsEndpoint)) } : {}),
    // Custom domains (decision 0055): the DNS stand-in answers the checks, the edge is the stand-in (no CloudFront), a
    // domain's CNAME points at the storefront entry's name, and the local app's and pages' hosts are the platform's own.
    ...(outputs.DnsResolver ? { DNS_RESOLVER: outputs.DnsResolver } : {}),
    EDGE_TENANTS_LOCAL: 'true',
    DOMAIN_CNAME_TARGET: LOCAL_CNAME_TARGET,
    PLATFORM_HOSTNAMES: [outputs.WebUrl, outputs.PagesUrl, outputs.ApiUrl]
      .filter((url): url is string => Boolean(url))
      .map((url) => new URL(url).hostname)
      .join(','),
    LOG_LEVEL: host['LOG_LEVEL'] || 'info',
    // The SDKs insist on credentials even against local endpoints.
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  };
  const unknown = Object.keys(env).filter((k) => !k.startsWith('AWS_') && !configKeys.includes(k as keyof Config));
  if (unknown.length > 0) throw new Error(`functionEnv sets variables functions/config.ts does not read: ${unknown.join(', ')}`);
  return env;
};

/** Puts the handler environment into this process (handlers run in-process) and forgets the cached config and secrets. */
export const applyFunctionEnv = (env: Record<string, string | undefined>): void => {
  // Credentials from a developer's profile must not leak into local calls: drop them first, then set ours.
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_PROFILE;
  for (const [key, value] of Object.entries(env)) if (value !== undefined) process.env[key] = value;
  resetConfig();
  forgetSecrets();
};
