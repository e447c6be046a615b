/**
 * Which Stripe the local cloud's functions talk to. By default the stand-in, with a test key it accepts and its own
 * price catalogue. A developer asks for real Stripe (test mode) by setting STRIPE_SECRET_KEY on the host (README
 * "Payments locally"), with the webhook secret `stripe listen` prints and the three price ids. These host variables
 * are read here only: the functions never see them, they read the key through the secrets stand-in.
 */
export const standInApiKey = 'sk_test_local';

/** The stand-in's catalogue (stripe/state.ts seeds exactly these prices). */
export const standInPrices = {
  starter: 'price_starter_monthly',
  pro: 'price_pro_monthly',
  credits: 'price_credits_100',
} as const;

export interface StripePrices {
  starter: string;
  pro: string;
  credits: string;
}

export type StripeMode =
  | { kind: 'stand-in'; apiKey: string; prices: StripePrices }
  | { kind: 'real'; apiKey: string; webhookSecret: string; prices: StripePrices };

const priceVariables = { starter: 'STRIPE_PRICE_STARTER', pro: 'STRIPE_PRICE_PRO', credits: 'STRIPE_PRICE_CREDITS' } as const;

export const stripeMode = (host: NodeJS.ProcessEnv): StripeMode => {
  const apiKey = host['STRIPE_SECRET_KEY'];
  if (!apiKey || apiKey === standInApiKey) return { kind: 'stand-in', apiKey: standInApiKey, prices: { ...standInPrices } };
  const webhookSecret = host['STRIPE_WEBHOOK_SECRET'];
  if (!webhookSecret) throw new Error('STRIPE_SECRET_KEY is set: set STRIPE_WEBHOOK_SECRET too (from `stripe listen`).');
  const missing = Object.values(priceVariables).filter((name) => !host[name]);
  if (missing.length > 0) throw new Error(`STRIPE_SECRET_KEY is set: set ${missing.join(', ')} too (docs/deploy.md creates the prices).`);
  const price = (plan: keyof StripePrices) => host[priceVariables[plan]]!;
  return { kind: 'real', apiKey, webhookSecret, prices: { starter: price('starter'), pro: price('pro'), credits: price('credits') } };
};
