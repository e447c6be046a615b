/**
 * What of the Developers page has its server side yet (issue 31 lands in steps): the API keys do; the webhook endpoints
 * (POST/GET /api/webhook-endpoints) and the generated reference (/v1/openapi.json) are still to come. The webhooks card
 * and the API reference page are built and tested against the contract; they are shown once their routes exist, so
 * no creator meets a card that can only fail to load. Turned on by the step that lands each route.
 */
export const developersAvailability = { webhooks: false, apiReference: false } as const;
