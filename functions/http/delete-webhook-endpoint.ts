import { deleteWebhookEndpoint } from '#core/webhooks/endpoints.ts';
import { webhookEndpointRepository } from '#functions/composition/deps-webhooks.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** DELETE /api/webhook-endpoints/{endpointId}: 204; nothing more is delivered to it. */
export const handler = httpRoute({ route: 'delete-webhook-endpoint' }, async ({ auth, params }): Promise<Reply> => {
  await deleteWebhookEndpoint({ endpoints: webhookEndpointRepository() }, { creatorId: auth.userId, endpointId: params['endpointId'] ?? '' });
  return new Reply(204, null);
});
