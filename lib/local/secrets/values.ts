import { GOOGLE_DEMO_CLIENT_SECRET } from '../google/stand-in.ts';
import { stripeMode } from '../stripe/mode.ts';

/** The Secrets Manager ids of the functions' secrets, locally as in the cloud (STRIPE_*_SECRET_ID). */
export const secretIds = {
  stripeApiKey: 'course-platform/stripe-api-key',
  stripeWebhookSecret: 'course-platform/stripe-webhook-secret',
  stripeConnectWebhookSecret: 'course-platform/stripe-connect-webhook-secret',
  googleOAuthClientSecret: 'course-platform/google-oauth-client-secret',
} as const;

/**
 * What the secrets stand-in serves: the stand-in's test key and this data dir's generated webhook secrets, or, when
 * the developer asked for real Stripe, the host's STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (`stripe listen` signs
 * the Connect events it forwards with the same secret; STRIPE_CONNECT_WEBHOOK_SECRET overrides it).
 */
export const localSecretValues = (
  generated: { stripeWebhookSecret: string; stripeConnectWebhookSecret: string },
  host: NodeJS.ProcessEnv,
): Record<string, string> => {
  const stripe = stripeMode(host);
  return {
    [secretIds.stripeApiKey]: stripe.apiKey,
    [secretIds.stripeWebhookSecret]: stripe.kind === 'real' ? stripe.webhookSecret : generated.stripeWebhookSecret,
    [secretIds.stripeConnectWebhookSecret]:
      stripe.kind === 'real' ? (host['STRIPE_CONNECT_WEBHOOK_SECRET'] ?? stripe.webhookSecret) : generated.stripeConnectWebhookSecret,
    // The Google stand-in's client (lib/local/google/stand-in.ts).
    [secretIds.googleOAuthClientSecret]: GOOGLE_DEMO_CLIENT_SECRET,
  };
};
