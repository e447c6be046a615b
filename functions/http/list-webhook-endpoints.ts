import { listWebhookEndpoints } from '#core/webhooks/endpoints.ts';
import { webhookEndpointRepository } from '#functions/composition/deps-webhooks.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/webhook-endpoints: the creator's endpoints, newest first, never their secrets. */
export const handler = httpRoute({ route: 'list-webhook-endpoints' }, ({ auth }) => listWebhookEndpoints({ endpoints: webhookEndpointRepository() }, auth.userId));
