import * as z from 'zod';

/**
 * The environment, parsed once. process.env appears nowhere else in functions/.
 * Endpoints are set only in the local cloud (and tests); in AWS the SDKs use their defaults.
 *
 * No value a function depends on has a default: the CDK (lib/constructs/app-function.ts) and the local cloud
 * (lib/local/function-env.ts) set each one explicitly, and a function that reaches for a missing one fails at once
 * with the variable's name (`required`), instead of running in the cloud against a local stand-in's value.
 */
const optionalUrl = z.url().optional();
const optionalText = z.string().min(1).optional();
const schema = z.object({
  /** Set by Lambda; the default only serves tools that run outside it. */
  AWS_REGION: z.string().default('eu-west-2'),
  TABLE_NAME: optionalText,
  DYNAMODB_ENDPOINT: optionalUrl,
  USER_POOL_ID: optionalText,
  COGNITO_ENDPOINT: optionalUrl,
  SES_ENDPOINT: optionalUrl,
  SES_CONFIGURATION_SET: optionalText,
  MAIL_FROM: optionalText,
  /**
   * Secrets Manager ids of the Stripe API key and of the webhook signing secret. The values themselves never sit in
   * the environment: they are read through the AWS Parameters and Secrets Lambda Extension (adapters/secrets.ts).
   */
  STRIPE_API_KEY_SECRET_ID: optionalText,
  STRIPE_WEBHOOK_SECRET_ID: optionalText,
  /** The signing secret of the Connect webhook endpoint (events on the creators' connected accounts). */
  STRIPE_CONNECT_WEBHOOK_SECRET_ID: optionalText,
  /** The extension's HTTP port (its default 2773 in Lambda; the local cloud runs a stand-in on its own port). */
  PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: z.coerce.number().int().min(1).max(65535).default(2773),
  /** Set by Lambda for the execution role's session; the extension requires it on every request. */
  AWS_SESSION_TOKEN: optionalText,
  /** Set by Lambda (`AWS_Lambda_nodejs22.x`): Tracer traces only there, and is loaded only there (adapters/tracer.ts). */
  AWS_EXECUTION_ENV: optionalText,
  STRIPE_API_URL: optionalUrl,
  /** The catalogue's price ids (created once in Stripe; docs/deploy.md). */
  STRIPE_PRICE_STARTER: optionalText,
  STRIPE_PRICE_PRO: optionalText,
  STRIPE_PRICE_CREDITS: optionalText,
  BEDROCK_ENDPOINT: optionalUrl,
  BEDROCK_MODEL_ID: optionalText,
  /**
   * Zoom's REST API base and OAuth base (issue 30; capability 'meetings'): https://api.zoom.us/v2 and https://zoom.us in
   * AWS, the Zoom stand-in locally.
   */
  ZOOM_API_URL: optionalUrl,
  ZOOM_OAUTH_URL: optionalUrl,
  /**
   * Google (issue 30, decision 0047; capability 'google-calendar'): the platform's OAuth client id, the Secrets
   * Manager id of its client secret, the consent screen, the token endpoint and Calendar v3's base. In AWS Google's own
   * (https://accounts.google.com/o/oauth2/v2/auth, https://oauth2.googleapis.com/token,
   * https://www.googleapis.com/calendar/v3), set by the CDK; locally the stand-in's (lib/local/google/).
   */
  GOOGLE_OAUTH_CLIENT_ID: optionalText,
  GOOGLE_OAUTH_CLIENT_SECRET_ID: optionalText,
  GOOGLE_OAUTH_URL: optionalUrl,
  GOOGLE_TOKEN_URL: optionalUrl,
  GOOGLE_CALENDAR_API_URL: optionalUrl,
  APP_ORIGIN: z.url().optional(),
  /**
   * The value the app distribution sends in `x-origin-verify` (decision 0030): set, every route but the pages one
   * refuses a request without it (403). Unset (tests, a local cloud without LOCAL_EDGE_ONLY): not checked.
   */
  ORIGIN_SECRET: optionalText,
  /** The value the pages distribution sends in `x-origin-verify`: set, the published-page route answers only it (404 otherwise). */
  PAGES_ORIGIN_SECRET: optionalText,
  /** The private files bucket (capabilities 'files', and 'avatars' / 'avatars:read' for the creators' pictures). */
  FILES_BUCKET: optionalText,
  /** The local S3 emulator (s3rver); absent in the cloud, where the SDK's endpoint and the function's role serve. */
  FILES_ENDPOINT: optionalUrl,
  SECRETS_KEY_ID: optionalText,
  /** The asymmetric KMS key certificates are signed with (capability 'certificate-signing'; decision 0030). */
  CERTIFICATE_KEY_ID: optionalText,
  /** The local KMS stand-in (lib/local/kms/); absent in the cloud. */
  KMS_ENDPOINT: optionalUrl,
  LOCAL_SECRETS_KEY_FILE: optionalText,
  /**
   * The job queues this function sends slices to (decision 0032): a JSON object from job name to SQS queue URL, the
   * job's own queue for a job, the queues of the runs it starts for any other function (capability 'queue:<job>').
   */
  JOB_QUEUE_URLS: optionalText,
  /** The local SQS stand-in (lib/local/sqs/); absent in the cloud. */
  SQS_ENDPOINT: optionalUrl,
  /**
   * Microsoft Graph's base and Microsoft identity's authority host (issue 30, decision 0046; capability 'meetings'):
   * https://graph.microsoft.com and https://login.microsoftonline.com in AWS, the Microsoft stand-in locally
   * (lib/local/microsoft/). The Teams adapter adds `/v1.0/...` and `/{tenant}/oauth2/v2.0/token`.
   */
  GRAPH_API_URL: optionalUrl,
  MICROSOFT_LOGIN_URL: optionalUrl,
  /**
   * The function's profile (functions/function-timeouts.ts), set on every function by lib/constructs/app-function.ts:
   * which DynamoDB retry policy fits its timeout. Unset (the local cloud runs every handler in one process, tests):
   * 'crud', whose policy fits every function.
   */
  FUNCTION_PROFILE: z.enum(['crud', 'heavy']).default('crud'),
  /**
   * Webhook deliveries (decision 0053): 'true' lets an endpoint be `http://127.0.0.1:<port>` and lets its delivery reach
   * that loopback address, so tests can receive. Only the local cloud sets it (lib/local/function-env.ts); in AWS an
   * endpoint is https and public, always.
   */
  WEBHOOK_ALLOW_LOCAL_HTTP: z.enum(['true', 'false']).optional(),
  /** The wait before a delivery's first retry, in seconds, in place of WEBHOOK_RETRY_DELAYS_S[0]: the local cloud's tests only. */
  WEBHOOK_FIRST_RETRY_DELAY_S: z.coerce.number().int().min(0).max(900).optional(),
  /**
   * Custom domains (issue 32, decision 0055; capability 'custom-domains'): the hostname every custom domain's CNAME
   * must point at (the multi-tenant distribution's in AWS, a name of the storefront stand-in's locally), the
   * platform's own hostnames (comma-separated: the app's, the pages'), which no creator may claim nor anything under
   * them, and the multi-tenant distribution whose tenants serve the domains and the connection group they join (AWS only).
   */
  DOMAIN_CNAME_TARGET: optionalText,
  PLATFORM_HOSTNAMES: optionalText,
  EDGE_TENANTS_DISTRIBUTION_ID: optionalText,
  EDGE_TENANTS_CONNECTION_GROUP_ID: optionalText,
  /** The DNS servers the custom domains' checks ask (`host:port`, comma-separated): the local cloud's DNS stand-in; unset in AWS (the system's). */
  DNS_RESOLVER: optionalText,
  /** 'true': the custom domains' edge is the local stand-in (adapters/cloudfront-tenants.ts), no CloudFront. Only the local cloud sets it. */
  EDGE_TENANTS_LOCAL: z.enum(['true', 'false']).optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
});

export type Config = z.infer<typeof schema>;

let cached: Config | undefined;

/** The parsed environment. Parsed on first use, then cached for the life of the process. */
export const config = (): Config => (cached ??= schema.parse(process.env));

/**
 * Whether this process is a Lambda function (Lambda sets AWS_EXECUTION_ENV). Read alone, as modules load (the
 * tracer's), without parsing the rest of the environment, which a local process may set only later.
 */
export const inLambda = (): boolean => schema.shape.AWS_EXECUTION_ENV.parse(process.env['AWS_EXECUTION_ENV']) !== undefined;

/** A value this function cannot work without: its absence is a configuration error, named, at first use. */
export const required = <K extends keyof Config>(key: K): NonNullable<Config[K]> => {
  const value = config()[key];
  if (value === undefined || value === null || value === '') {
    throw new Error(`${key} is not set: this function needs it (set by the CDK app in the cloud and by lib/local/function-env.ts locally).`);
  }
  return value as NonNullable<Config[K]>;
};

/** Tests and the local cloud change the environment between runs: forget the cached parse. */
export const resetConfig = (): void => {
  cached = undefined;
};

/** The names of every variable the functions read: the CDK and the local cloud set them from here. */
export const configKeys = Object.keys(schema.shape) as (keyof Config)[];
