import * as z from 'zod';

/**
 * The environment, parsed once. process.env appears nowhere else in functions/.
 * Endpoints are set only in the local cloud (and tests); in AWS the SDKs use their defaults.
 */
const optionalUrl = z.url().optional();
const schema = z.object({
  AWS_REGION: z.string().default('eu-west-2'),
  TABLE_NAME: z.string().default('course-platform'),
  DYNAMODB_ENDPOINT: optionalUrl,
  USER_POOL_ID: z.string().default(''),
  COGNITO_ENDPOINT: optionalUrl,
  SES_ENDPOINT: optionalUrl,
  SES_CONFIGURATION_SET: z.string().optional(),
  MAIL_FROM: z.string().default('Course Platform <no-reply@example.com>'),
  STRIPE_SECRET_KEY: z.string().default('sk_test_local'),
  STRIPE_WEBHOOK_SECRET: z.string().default('whsec_local'),
  STRIPE_API_URL: optionalUrl,
  /** The catalogue's price ids (created once in Stripe; docs/deploy.md). Defaults are the local stand-in's. */
  STRIPE_PRICE_STARTER: z.string().default('price_starter_monthly'),
  STRIPE_PRICE_PRO: z.string().default('price_pro_monthly'),
  STRIPE_PRICE_CREDITS: z.string().default('price_credits_100'),
  BEDROCK_ENDPOINT: optionalUrl,
  BEDROCK_MODEL_ID: z.string().default('anthropic.claude-3-haiku-20240307-v1:0'),
  APP_ORIGIN: z.url().default('http://localhost:5173'),
  SECRETS_KEY_ID: z.string().optional(),
  LOCAL_SECRETS_KEY_FILE: z.string().optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
});

export type Config = z.infer<typeof schema>;

let cached: Config | undefined;

/** The parsed environment. Parsed on first use, then cached for the life of the process. */
export const config = (): Config => (cached ??= schema.parse(process.env));

/** Tests and the local cloud change the environment between runs: forget the cached parse. */
export const resetConfig = (): void => {
  cached = undefined;
};

/** The names of every variable the functions read: the CDK and the local cloud set them from here. */
export const configKeys = Object.keys(schema.shape) as (keyof Config)[];
