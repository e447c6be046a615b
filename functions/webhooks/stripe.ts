import { handleStripeEvent } from '../core/billing/handle-stripe-event.ts';
import { paymentsService } from '../deps-payments.ts';
import { billingRepository, clock, creditRepository, priceIds } from '../deps.ts';
import { logger } from '../middleware/logger.ts';
import { httpRoute } from '../middleware/http-route.ts';

/**
 * POST /api/webhooks/stripe: the signature over the raw body first (400 BAD_SIGNATURE, nothing written), then the
 * event applied once. Answers fast; a failure is a 5xx so that Stripe delivers again.
 */
export const handler = httpRoute({ raw: true }, async ({ rawBody, headers, requestId }) => {
  const event = paymentsService().parseEvent(rawBody, headers['stripe-signature']);
  const outcome = await handleStripeEvent(
    { billing: billingRepository(), credits: creditRepository(), prices: priceIds(), clock },
    event,
  );
  logger.info('stripe event', { requestId, eventId: event.id, eventType: event.type, outcome });
  return { received: true };
});
