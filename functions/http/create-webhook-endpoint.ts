import { createWebhookEndpointBody } from '#contracts/webhooks.ts';
import { createWebhookEndpoint } from '#core/webhooks/endpoints.ts';
import { webhookEndpointDeps } from '#functions/composition/deps-webhooks.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/webhook-endpoints: 201 and the signing secret, shown this once; 400 for a URL that is not https and public. */
export const handler = httpRoute({ route: 'create-webhook-endpoint', body: createWebhookEndpointBody }, async ({ auth, body }): Promise<Reply> =>
  new Reply(201, await createWebhookEndpoint(webhookEndpointDeps(), { creatorId: auth.userId, body })),
);
