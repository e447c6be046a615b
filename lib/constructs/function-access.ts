import type { Config } from '#functions/config.ts';
import type { Capability } from '#functions/routes.ts';

export type { Capability } from '#functions/routes.ts';

/** Table access of a function: routes get 'read' for GET and 'read-write' otherwise. */
export type TableAccess = 'none' | 'read' | 'read-write';

/**
 * Where each variable of functions/config.ts comes from in the cloud. The Record is exhaustive over the config
 * keys, so a new key in config.ts does not compile until it is classified here.
 * - 'runtime': set by Lambda itself (AWS_REGION is reserved).
 * - 'local-only': endpoints and files of the local cloud; never set in AWS, where the SDKs use their defaults.
 * - 'always': every function.
 * - 'table': functions with table access.
 * - a capability: functions granted that capability.
 */
export type KeySource = 'runtime' | 'local-only' | 'always' | 'table' | Capability;

export const configKeySources = {
  AWS_REGION: 'runtime',
  TABLE_NAME: 'table',
  DYNAMODB_ENDPOINT: 'local-only',
  USER_POOL_ID: 'directory:add-to-group',
  COGNITO_ENDPOINT: 'local-only',
  SES_ENDPOINT: 'local-only',
  SES_CONFIGURATION_SET: 'mail',
  MAIL_FROM: 'mail',
  STRIPE_SECRET_KEY: 'payments',
  STRIPE_WEBHOOK_SECRET: 'payments',
  STRIPE_API_URL: 'local-only',
  STRIPE_PRICE_STARTER: 'payments',
  STRIPE_PRICE_PRO: 'payments',
  STRIPE_PRICE_CREDITS: 'payments',
  BEDROCK_ENDPOINT: 'local-only',
  BEDROCK_MODEL_ID: 'text-model',
  APP_ORIGIN: 'app-links',
  SECRETS_KEY_ID: 'secrets',
  LOCAL_SECRETS_KEY_FILE: 'local-only',
  LOG_LEVEL: 'always',
} as const satisfies Record<keyof Config, KeySource>;

export type ConfigKey = keyof typeof configKeySources;
/** The config keys a function can be given in AWS. */
export type CloudConfigKey = {
  [K in ConfigKey]: (typeof configKeySources)[K] extends 'runtime' | 'local-only' ? never : K;
}[ConfigKey];

/** Capabilities that need another one to work (an email or a checkout links back to the app). */
const implied: Partial<Record<Capability, readonly Capability[]>> = {
  'directory:admin': ['directory:add-to-group'],
  mail: ['app-links'],
  payments: ['app-links'],
};

/** The capabilities with what they imply, deduplicated and sorted (stable templates). */
export const expandCapabilities = (uses: readonly Capability[]): Capability[] =>
  [...new Set(uses.flatMap((c) => [c, ...(implied[c] ?? [])]))].sort();

/** The config keys a function with this table access and these capabilities reads in AWS. */
export const cloudConfigKeys = (table: TableAccess, uses: readonly Capability[]): CloudConfigKey[] => {
  const sources = new Set<KeySource>(['always', ...expandCapabilities(uses)]);
  if (table !== 'none') sources.add('table');
  return (Object.keys(configKeySources) as ConfigKey[]).filter((key): key is CloudConfigKey =>
    sources.has(configKeySources[key]),
  );
};
