import { retryWebhookDelivery } from '#core/webhooks/deliveries.ts';
import { webhookDeliveryDeps } from '#functions/composition/deps-webhooks.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/webhook-endpoints/{endpointId}/deliveries/{deliveryId}/retry: 202; attempted at once. */
export const handler = httpRoute({ route: 'retry-webhook-delivery' }, async ({ auth, params }): Promise<Reply> => {
  await retryWebhookDelivery(webhookDeliveryDeps(), { creatorId: auth.userId, endpointId: params['endpointId'] ?? '', deliveryId: params['deliveryId'] ?? '' });
  return new Reply(202, { accepted: true });
});
