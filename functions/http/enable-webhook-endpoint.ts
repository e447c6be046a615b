import { enableWebhookEndpoint } from '#core/webhooks/endpoints.ts';
import { webhookEndpointRepository } from '#functions/composition/deps-webhooks.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/webhook-endpoints/{endpointId}/enable: the endpoint, enabled again (a disabled one, after it was fixed). */
export const handler = httpRoute({ route: 'enable-webhook-endpoint' }, async ({ auth, params }): Promise<Reply> =>
  new Reply(200, await enableWebhookEndpoint({ endpoints: webhookEndpointRepository() }, { creatorId: auth.userId, endpointId: params['endpointId'] ?? '' })),
);
