import type { Config } from '#functions/config.ts';
import type { Capability } from '#functions/routes.ts';

export type { Capability } from '#functions/routes.ts';

/** Table access of a function: routes get 'read' for GET and 'read-write' otherwise. */
export type TableAccess = 'none' | 'read' | 'read-write';

/**
 * Where each variable of functions/config.ts comes from in the cloud. The Record is exhaustive over the config
 * keys, so a new key in config.ts does not compile until it is classified here.
 * - 'runtime': set by Lambda itself (AWS_REGION, AWS_SESSION_TOKEN, AWS_EXECUTION_ENV).
 * - 'extension': set with the AWS Parameters and Secrets Lambda Extension's own configuration (aws-cdk-lib
 *   `paramsAndSecrets`) on the functions that read a secret, so function and extension agree on it; locally the
 *   secrets stand-in's value.
 * - 'local-only': endpoints and files of the local cloud; never set in AWS, where the SDKs use their defaults.
 * - 'always': every function.
 * - 'table': functions with table access.
 * - 'edge': the functions behind HTTP routes (the origin header's values; jobs and triggers have no origin).
 * - a capability: functions granted that capability; a list of them: functions granted any one of them (the price
 *   ids serve both the API caller and the webhook, without giving the webhook the API key).
 */
export type KeySource = 'runtime' | 'extension' | 'local-only' | 'edge' | 'always' | 'table' | Capability;

/** Sources whose variables the CDK app never sets itself. */
const notSetByApp = ['runtime', 'extension', 'local-only'] as const;
type NotSetByApp = (typeof notSetByApp)[number];

export const configKeySources = {
  AWS_REGION: 'runtime',
  TABLE_NAME: 'table',
  DYNAMODB_ENDPOINT: 'local-only',
  USER_POOL_ID: ['directory:add-to-group', 'directory:read'],
  COGNITO_ENDPOINT: 'local-only',
  SES_ENDPOINT: 'local-only',
  SES_CONFIGURATION_SET: 'mail',
  MAIL_FROM: 'mail',
  STRIPE_API_KEY_SECRET_ID: 'payments',
  STRIPE_WEBHOOK_SECRET_ID: 'payments-webhook',
  STRIPE_CONNECT_WEBHOOK_SECRET_ID: 'payments-connect-webhook',
  PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: 'extension',
  AWS_SESSION_TOKEN: 'runtime',
  AWS_EXECUTION_ENV: 'runtime',
  STRIPE_API_URL: 'local-only',
  STRIPE_PRICE_STARTER: ['payments', 'payments-webhook'],
  STRIPE_PRICE_PRO: ['payments', 'payments-webhook'],
  STRIPE_PRICE_CREDITS: ['payments', 'payments-webhook'],
  BEDROCK_ENDPOINT: 'local-only',
  BEDROCK_MODEL_ID: 'text-model',
  ZOOM_API_URL: 'meetings',
  ZOOM_OAUTH_URL: 'meetings',
  GOOGLE_OAUTH_CLIENT_ID: 'google-calendar',
  GOOGLE_OAUTH_CLIENT_SECRET_ID: 'google-calendar',
  GOOGLE_OAUTH_URL: 'google-calendar',
  GOOGLE_TOKEN_URL: 'google-calendar',
  GOOGLE_CALENDAR_API_URL: 'google-calendar',
  APP_ORIGIN: 'app-links',
  ORIGIN_SECRET: 'edge',
  PAGES_ORIGIN_SECRET: 'edge',
  SECRETS_KEY_ID: 'secrets',
  CERTIFICATE_KEY_ID: 'certificate-signing',
  KMS_ENDPOINT: 'local-only',
  LOCAL_SECRETS_KEY_FILE: 'local-only',
  FILES_BUCKET: ['files', 'files:read', 'files:erase-submissions', 'avatars', 'avatars:read', 'exports'],
  FILES_ENDPOINT: 'local-only',
  JOB_QUEUE_URLS: 'job-queues',
  SQS_ENDPOINT: 'local-only',
  GRAPH_API_URL: 'meetings',
  MICROSOFT_LOGIN_URL: 'meetings',
  FUNCTION_PROFILE: 'always',
  LOG_LEVEL: 'always',
  WEBHOOK_ALLOW_LOCAL_HTTP: 'local-only',
  WEBHOOK_FIRST_RETRY_DELAY_S: 'local-only',
  DOMAIN_CNAME_TARGET: 'custom-domains',
  PLATFORM_HOSTNAMES: 'custom-domains',
  EDGE_TENANTS_DISTRIBUTION_ID: 'custom-domains',
  EDGE_TENANTS_CONNECTION_GROUP_ID: 'custom-domains',
  DNS_RESOLVER: 'local-only',
  EDGE_TENANTS_LOCAL: 'local-only',
} as const satisfies Record<keyof Config, KeySource | readonly [KeySource, ...KeySource[]]>;

export type ConfigKey = keyof typeof configKeySources;
/** The config keys the CDK app sets on a function in AWS. */
export type CloudConfigKey = {
  [K in ConfigKey]: (typeof configKeySources)[K] extends NotSetByApp ? never : K;
}[ConfigKey];

/** The sources of a key, always as a list. */
export const sourcesOf = (key: ConfigKey): readonly KeySource[] => {
  const source: KeySource | readonly KeySource[] = configKeySources[key];
  return typeof source === 'string' ? [source] : source;
};

/** True for the keys the CDK app never sets: Lambda's own, the extension's, the local cloud's. */
export const isSetOutsideApp = (key: ConfigKey): boolean =>
  sourcesOf(key).some((source) => (notSetByApp as readonly string[]).includes(source));

/**
 * The keys whose value is the name of a Secrets Manager secret. A function given one may read that secret, and only
 * that one, through the Parameters and Secrets extension (lib/constructs/app-function.ts): the grant follows the
 * variable, so a function can never be told of a secret it cannot read, nor read one it was not told of.
 */
export const secretIdKeys = ['STRIPE_API_KEY_SECRET_ID', 'STRIPE_WEBHOOK_SECRET_ID', 'STRIPE_CONNECT_WEBHOOK_SECRET_ID', 'GOOGLE_OAUTH_CLIENT_SECRET_ID'] as const satisfies readonly CloudConfigKey[];

/** Capabilities that need another one to work (an email or a checkout links back to the app). */
const implied: Partial<Record<Capability, readonly Capability[]>> = {
  'directory:admin': ['directory:add-to-group'],
  mail: ['app-links'],
  payments: ['app-links'],
  // The consent flow's redirect URI is on the app's origin.
  'google-calendar': ['app-links'],
};

/** The capabilities with what they imply, deduplicated and sorted (stable templates). */
export const expandCapabilities = (uses: readonly Capability[]): Capability[] =>
  [...new Set(uses.flatMap((c) => [c, ...(implied[c] ?? [])]))].sort();

/** The config keys a function with this table access and these capabilities reads in AWS. */
export const cloudConfigKeys = (table: TableAccess, uses: readonly Capability[], httpRoute = false): CloudConfigKey[] => {
  const sources = new Set<KeySource>(['always', ...expandCapabilities(uses)]);
  if (table !== 'none') sources.add('table');
  if (httpRoute) sources.add('edge');
  return (Object.keys(configKeySources) as ConfigKey[]).filter(
    (key): key is CloudConfigKey => !isSetOutsideApp(key) && sourcesOf(key).some((source) => sources.has(source)),
  );
};
