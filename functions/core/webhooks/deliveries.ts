import type { WebhookDeliveryPage } from '#contracts/webhooks.ts';
import { NotFoundError } from '#core/errors.ts';
import { attemptDelivery } from '#core/webhooks/deliver.ts';
import type { StoredWebhookDelivery, WebhookDeliveryDeps, WebhookDeliveryRepository, WebhookEndpointRepository } from '#core/webhooks/ports.ts';

/** Deliveries per page of an endpoint's log. */
export const DELIVERY_PAGE = 25;

const view = (d: StoredWebhookDelivery) => ({ id: d.id, event: d.event, status: d.status, attempts: d.attempts, lastStatusCode: d.lastStatusCode, nextAttemptAt: d.nextAttemptAt, createdAt: d.createdAt });

/** Use case: an endpoint's delivery log, newest first, a page at a time; another creator's endpoint is 404. */
export const listWebhookDeliveries = async (
  deps: { endpoints: Pick<WebhookEndpointRepository, 'get'>; deliveries: Pick<WebhookDeliveryRepository, 'page'> },
  input: { creatorId: string; endpointId: string; cursor: string | undefined },
): Promise<WebhookDeliveryPage> => {
  if (!(await deps.endpoints.get(input.creatorId, input.endpointId))) throw new NotFoundError('No such webhook endpoint.');
  const page = await deps.deliveries.page(input.endpointId, input.cursor, DELIVERY_PAGE);
  return { items: page.items.map(view), nextCursor: page.nextCursor };
};

/**
 * Use case: Retry now. A pending or failed delivery of the creator's endpoint is made due now and attempted at once
 * (claimed like any attempt, so a sweep running meanwhile does not send it too); a delivered one is left as it is.
 * Another creator's endpoint or delivery is 404.
 */
export const retryWebhookDelivery = async (deps: WebhookDeliveryDeps, input: { creatorId: string; endpointId: string; deliveryId: string }): Promise<void> => {
  const delivery = (await deps.endpoints.get(input.creatorId, input.endpointId)) ? await deps.deliveries.get(input.endpointId, input.deliveryId) : undefined;
  if (!delivery || delivery.creatorId !== input.creatorId) throw new NotFoundError('No such webhook delivery.');
  const due = await deps.deliveries.requeue(delivery, deps.clock.now().toISOString());
  if (due) await attemptDelivery(deps, due);
};
