import * as z from 'zod';
import { applyStripeWebhook } from '#core/billing/handle-stripe-event.ts';
import { paymentEvents, stripeEventDeps } from '#functions/composition/deps-payments.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** The signature header, read by the use case (a missing one is 400 BAD_SIGNATURE, like a wrong one). */
const stripeHeaders = z.object({ 'stripe-signature': z.string().optional() });

/**
 * POST /api/webhooks/stripe: the signature over the raw body first (400 BAD_SIGNATURE, nothing written), then the
 * event applied once. Answers fast; a failure is a 5xx so that Stripe delivers again. The event's id, type and
 * outcome go on the request's log line.
 */
export const handler = httpRoute({ route: 'stripe-webhook', raw: true, headers: stripeHeaders }, async ({ rawBody, headers, annotate }) => {
  const applied = await applyStripeWebhook({ ...stripeEventDeps(), events: paymentEvents() }, { rawBody, signature: headers['stripe-signature'] });
  annotate(applied);
  return { received: true };
});
