import * as z from 'zod';
import { applyConnectWebhook } from '#core/sales/connect-webhook.ts';
import { connectEventDeps } from '#functions/composition/deps-payments.ts';
import { httpRoute } from '#middleware/http-route.ts';
import { scopedLog } from '#middleware/logger.ts';

const stripeHeaders = z.object({ 'stripe-signature': z.string().optional() });

/**
 * POST /api/webhooks/stripe-connect: events on the creators' connected accounts, signed with the Connect endpoint's
 * own secret. The signature first (400 BAD_SIGNATURE, nothing written), then the event applied once; the event's id,
 * type, account and outcome go on the request's log line.
 */
export const handler = httpRoute({ route: 'stripe-connect-webhook', raw: true, headers: stripeHeaders }, async ({ rawBody, headers, annotate, requestId }) => {
  const note = (warning: string, fields: Record<string, unknown>) => annotate({ warning, ...fields });
  const alert = (message: string, fields: Record<string, unknown>) => scopedLog({ requestId, route: 'stripe-connect-webhook' }).error(message, fields);
  annotate(await applyConnectWebhook(connectEventDeps(note, alert), { rawBody, signature: headers['stripe-signature'] }));
  return { received: true };
});
