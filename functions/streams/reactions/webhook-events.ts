import type { DynamoDBRecord } from 'aws-lambda';
import { deliveriesOf, eventsOf, type TableChange } from '#core/webhooks/events.ts';
import type { StoredWebhookEndpoint, WebhookDeliveryRepository, WebhookEndpointRepository } from '#core/webhooks/ports.ts';
import { startWebhookDeliveries, webhookDeliveryRepository, webhookEndpointRepository } from '#functions/composition/deps-webhooks.ts';
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
  readonly deliveries: Pick<WebhookDeliveryRepository, 'enqueue'>;
  /** Starts a run of the 'webhook-deliveries' job (its first attempts at once, off this consumer). */
  readonly start: (key: string) => Promise<void>;
  /** Each creator's endpoints, read once per batch (a creator with none costs that one read and nothing else). */
  readonly byCreator: Map<string, Promise<StoredWebhookEndpoint[]>>;
  written: number;
  key: string | undefined;
}

/**
 * Webhook events (issue 31 point 4, decision 0053): the table's stream is the outbox. Each change that means an event
 * (core/webhooks/events.ts) gives one delivery per endpoint of its creator subscribed to it, written with a condition
 * on an id derived from the stream record (a batch seen twice writes nothing twice). A batch that wrote any starts a
 * run of the 'webhook-deliveries' job at its end (their first attempt at once, without the cipher or the HTTP calls
 * in this consumer); the every-minute run attempts whatever that missed.
 */
export const webhookEvents: Reaction<WebhookBatch> = {
  name: 'webhook-events',
  startBatch: () => ({ endpoints: webhookEndpointRepository(), deliveries: webhookDeliveryRepository(), start: startWebhookDeliveries, byCreator: new Map(), written: 0, key: undefined }),
  async onRecord(batch, record, log) {
    const change = changeOf(record);
    // An item that cannot give its event's documented data is a bug to see, not a payload to send (or a batch to stop).
    const events = eventsOf(change, (left) => log.warn('webhook event left out: the item does not give its documented data', { ...left, eventId: change.id }));
    for (const event of events) {
      let endpoints = batch.byCreator.get(event.creatorId);
      if (!endpoints) {
        endpoints = batch.endpoints.list(event.creatorId);
        batch.byCreator.set(event.creatorId, endpoints);
        endpoints.catch(() => batch.byCreator.delete(event.creatorId));
      }
      const deliveries = deliveriesOf(change, event, await endpoints);
      if (deliveries.length === 0) continue;
      batch.key ??= record.dynamodb?.SequenceNumber;
      batch.written += (await batch.deliveries.enqueue(deliveries)).length;
    }
  },
  async endBatch(batch, log) {
    if (batch.written === 0) return;
    await batch.start(`webhook-events:${batch.key ?? 'batch'}`);
    log.info('webhook deliveries queued', { written: batch.written });
  },
};
