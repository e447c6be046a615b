/**
 * What of the Developers page has its server side (issue 31 landed in steps): the API keys, the generated reference
 * (/v1/openapi.json) and the webhook endpoints all do now. A card whose routes are not served yet stays hidden here, so
 * no creator meets a card that can only fail to load.
 */
export const developersAvailability = { webhooks: true, apiReference: true } as const;
