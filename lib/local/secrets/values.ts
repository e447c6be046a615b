import { stripeMode } from '../stripe/mode.ts';

/** The Secrets Manager ids of the functions' secrets, locally as in the cloud (STRIPE_*_SECRET_ID). */
export const secretIds = {
  stripeApiKey: 'course-platform/stripe-api-key',
  stripeWebhookSecret: 'course-platform/stripe-webhook-secret',
} as const;

/**
 * What the secrets stand-in serves: the stand-in's test key and this data dir's generated webhook secret, or, when
 * the developer asked for real Stripe, the host's STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET.
 */
export const localSecretValues = (generated: { stripeWebhookSecret: string }, host: NodeJS.ProcessEnv): Record<string, string> => {
  const stripe = stripeMode(host);
  return {
    [secretIds.stripeApiKey]: stripe.apiKey,
    [secretIds.stripeWebhookSecret]: stripe.kind === 'real' ? stripe.webhookSecret : generated.stripeWebhookSecret,
  };
};
