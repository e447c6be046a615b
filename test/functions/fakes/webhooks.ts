import type { StoredWebhookEndpoint, WebhookEndpointRepository } from '#core/webhooks/ports.ts';

/** In-memory webhook endpoints, with the same rules as functions/data/webhooks.ts (the cap, newest first, owner only). */
export const memoryWebhookEndpoints = () => {
  const endpoints = new Map<string, StoredWebhookEndpoint>();
  const repo: WebhookEndpointRepository & { endpoints: typeof endpoints } = {
    endpoints,
    async create(endpoint, max) {
      if ([...endpoints.values()].filter((e) => e.creatorId === endpoint.creatorId).length >= max) return 'limit';
      endpoints.set(endpoint.id, endpoint);
      return 'created';
    },
    async list(creatorId) {
      return [...endpoints.values()].filter((e) => e.creatorId === creatorId).sort((a, b) => b.id.localeCompare(a.id));
    },
    async get(creatorId, endpointId) {
      const e = endpoints.get(endpointId);
      return e?.creatorId === creatorId ? e : undefined;
    },
    async remove(creatorId, endpointId) {
      if (endpoints.get(endpointId)?.creatorId !== creatorId) return false;
      return endpoints.delete(endpointId);
    },
  };
  return repo;
};
