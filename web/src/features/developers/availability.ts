/**
 * What of the Developers page has its server side yet (issue 31 lands in steps): the API keys and the generated
 * reference (/v1/openapi.json) do; the webhook endpoints (POST/GET /api/webhook-endpoints) are still to come. The
 * webhooks card is built and tested against the contract; it is shown once its routes exist, so no creator meets a
 * card that can only fail to load. Turned on by the step that lands its routes.
 */
export const developersAvailability = { webhooks: false, apiReference: true } as const;
