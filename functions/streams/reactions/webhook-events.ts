import type { DynamoDBRecord } from 'aws-lambda';
import { attemptAll } from '#core/webhooks/deliver.ts';
import { deliveriesOf, eventsOf, type TableChange } from '#core/webhooks/events.ts';
import type { StoredWebhookDelivery, StoredWebhookEndpoint, WebhookDeliveryDeps, WebhookEndpointRepository } from '#core/webhooks/ports.ts';
import { webhookDeliveryDeps, webhookEndpointRepository } from '#functions/composition/deps-webhooks.ts';
import { newImage, oldImage, type Reaction } from '#functions/streams/reactions/reaction.ts';

/** A stream record as the change core/webhooks/events.ts reads. */
export const changeOf = (record: DynamoDBRecord): TableChange => ({
  id: record.eventID ?? record.dynamodb?.SequenceNumber ?? '',
  kind: (record.eventName ?? 'MODIFY') as TableChange['kind'],
  at: new Date((record.dynamodb?.ApproximateCreationDateTime ?? Date.now() / 1000) * 1000),
  before: oldImage(record),
  after: newImage(record),
});

interface WebhookBatch {
  readonly endpoints: Pick<WebhookEndpointRepository, 'list'>;
  readonly deliveryDeps: () => WebhookDeliveryDeps;
  /** Each creator's endpoints, read once per batch (a creator with none costs that one read and nothing else). */
  readonly byCreator: Map<string, Promise<StoredWebhookEndpoint[]>>;
  readonly written: StoredWebhookDelivery[];
}

/**
 * Webhook events (issue 31 point 4, decision 0053): the table's stream is the outbox. Each change that means an event
 * (core/webhooks/events.ts) gives one delivery per endpoint of its creator subscribed to it, written with a condition
 * on an id derived from the stream record (a batch seen twice writes nothing twice); the batch's new deliveries get
 * their first attempt at its end, and the every-minute sweep attempts whatever that missed.
 */
export const webhookEvents: Reaction<WebhookBatch> = {
  name: 'webhook-events',
  startBatch: () => ({ endpoints: webhookEndpointRepository(), deliveryDeps: webhookDeliveryDeps, byCreator: new Map(), written: [] }),
  async onRecord(batch, record) {
    const change = changeOf(record);
    const events = eventsOf(change);
    for (const event of events) {
      let endpoints = batch.byCreator.get(event.creatorId);
      if (!endpoints) {
        endpoints = batch.endpoints.list(event.creatorId);
        batch.byCreator.set(event.creatorId, endpoints);
        endpoints.catch(() => batch.byCreator.delete(event.creatorId));
      }
      const deliveries = deliveriesOf(change, event, await endpoints);
      if (deliveries.length > 0) batch.written.push(...(await batch.deliveryDeps().deliveries.enqueue(deliveries)));
    }
  },
  async endBatch(batch, log) {
    if (batch.written.length === 0) return;
    const counts = await attemptAll(batch.deliveryDeps(), batch.written, (message, fields) => log.warn(message, fields));
    log.info('webhook deliveries attempted', counts);
  },
};
