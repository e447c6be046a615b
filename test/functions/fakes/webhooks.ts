import type { QueuedMail } from '#core/ports.ts';
import type { StoredWebhookDelivery, StoredWebhookEndpoint, WebhookDeliveryRepository, WebhookEndpointRepository } from '#core/webhooks/ports.ts';

/** In-memory webhook endpoints, with the same rules as functions/data/webhooks.ts (the cap, newest first, owner only). */
export const memoryWebhookEndpoints = () => {
  const endpoints = new Map<string, StoredWebhookEndpoint>();
  /** The notices queued with each disable (the mail queue's items). */
  const notices: QueuedMail[] = [];
  const repo: WebhookEndpointRepository & { endpoints: typeof endpoints; notices: typeof notices } = {
    endpoints,
    notices,
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
    async markFailing(endpoint, at) {
      const e = endpoints.get(endpoint.id);
      if (e && e.failingSince === null) endpoints.set(e.id, { ...e, failingSince: at });
    },
    async markDelivering(endpoint) {
      const e = endpoints.get(endpoint.id);
      if (e) endpoints.set(e.id, { ...e, failingSince: null });
    },
    async disable(endpoint, at, notice) {
      const e = endpoints.get(endpoint.id);
      if (!e || e.disabledAt !== null || e.failingSince !== endpoint.failingSince) return false;
      endpoints.set(e.id, { ...e, disabledAt: at });
      if (notice) notices.push(notice);
      return true;
    },
    async enable(creatorId, endpointId) {
      const e = endpoints.get(endpointId);
      if (e?.creatorId !== creatorId) return undefined;
      const enabled = { ...e, disabledAt: null, failingSince: null };
      endpoints.set(e.id, enabled);
      return enabled;
    },
  };
  return repo;
};

/** In-memory deliveries with the claim's condition of functions/data/webhooks.ts (status pending and the next attempt as read). */
export const memoryWebhookDeliveries = () => {
  const deliveries = new Map<string, StoredWebhookDelivery>();
  const repo: WebhookDeliveryRepository & { deliveries: typeof deliveries } = {
    deliveries,
    async enqueue(list) {
      const written = list.filter((d) => !deliveries.has(d.id));
      for (const d of written) deliveries.set(d.id, d);
      return written;
    },
    async claim(delivery, leaseUntil) {
      const stored = deliveries.get(delivery.id);
      if (stored?.status !== 'pending' || stored.nextAttemptAt !== delivery.nextAttemptAt) return undefined;
      const claimed = { ...stored, nextAttemptAt: leaseUntil };
      deliveries.set(delivery.id, claimed);
      return claimed;
    },
    async settle(claimed, outcome) {
      const stored = deliveries.get(claimed.id);
      if (stored?.status !== 'pending' || stored.nextAttemptAt !== claimed.nextAttemptAt) return false;
      deliveries.set(claimed.id, { ...stored, ...outcome });
      return true;
    },
    async due(now, limit) {
      return [...deliveries.values()].filter((d) => d.status === 'pending' && d.nextAttemptAt !== null && d.nextAttemptAt <= now).slice(0, limit);
    },
    async get(endpointId, deliveryId) {
      const d = deliveries.get(deliveryId);
      return d?.endpointId === endpointId ? d : undefined;
    },
    async page(endpointId) {
      return { items: [...deliveries.values()].filter((d) => d.endpointId === endpointId).sort((a, b) => b.id.localeCompare(a.id)), nextCursor: null };
    },
    async requeue(delivery, at) {
      const stored = deliveries.get(delivery.id);
      if (!stored || stored.status === 'delivered') return undefined;
      const next = { ...stored, status: 'pending' as const, nextAttemptAt: at };
      deliveries.set(delivery.id, next);
      return next;
    },
  };
  return repo;
};
