import { webhookDeliveryQuery } from '#contracts/webhooks.ts';
import { listWebhookDeliveries } from '#core/webhooks/deliveries.ts';
import { webhookDeliveryRepository, webhookEndpointRepository } from '#functions/composition/deps-webhooks.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/webhook-endpoints/{endpointId}/deliveries?cursor=: the endpoint's deliveries, newest first. */
export const handler = httpRoute({ route: 'list-webhook-deliveries', query: webhookDeliveryQuery }, ({ auth, params, query }) =>
  listWebhookDeliveries({ endpoints: webhookEndpointRepository(), deliveries: webhookDeliveryRepository() }, { creatorId: auth.userId, endpointId: params['endpointId'] ?? '', cursor: query.cursor }),
);
