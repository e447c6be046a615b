import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { webhookDeliveryStatuses, webhookEventTypes } from '#contracts/webhooks.ts';
import type { DeliveryOutcome, StoredWebhookDelivery, StoredWebhookEndpoint, WebhookDeliveryRepository, WebhookEndpointRepository } from '#core/webhooks/ports.ts';
import { mailQueuePut } from '#data/mail-queue.ts';
import { decodeCursor, documentClient, dueIndexPage, encodeCursor, queryAll, tableName, transact, writeIf } from '#data/table.ts';

/**
 * Webhook endpoints (issue 31 point 4, decision 0053).
 * Endpoint: pk CREATOR#<creatorId>  sk WHEP#<endpointId>   url, events, secret (sealed for the creator and the endpoint,
 *                                                          adapters/envelope-cipher.ts), createdAt, disabledAt: the
 *                                                          creator's list (endpointId is a ULID: newest first by sk), and
 *                                                          what a stream batch reads once per creator to find the
 *                                                          endpoints subscribed to an event (one Query); failingSince:
 *                                                          the first failed attempt since the last delivered one
 * Held:     pk CREATOR#<creatorId>  sk WHEPS               held: how many endpoints the creator has; the create
 *                                                          transaction takes a place only below the cap, delete gives it back
 * Delivery: pk WHEP#<endpointId>    sk WHDL#<deliveryId>   creatorId, event, payload (the exact body), status
 *                                                          pending|delivered|failed, attempts, lastStatusCode,
 *                                                          nextAttemptAt, createdAt: the endpoint's log, newest first by
 *                                                          sk (deliveryId starts with the change's time in ms, then a hash
 *                                                          of the stream record's eventID, the event and the endpoint:
 *                                                          core/webhooks/events.ts), written with attribute_not_exists,
 *                                                          so a batch seen twice writes nothing twice
 *           gsi3pk WEBHOOKS#DUE  gsi3sk <nextAttemptAt>#<endpointId>#<deliveryId>   while pending (sparse): what the
 *                                                          every-minute sweep attempts; a claim moves nextAttemptAt (and
 *                                                          this key) to the claim's lease, conditionally on the value read
 */
export const webhookKeys = {
  endpoint: (creatorId: string, endpointId: string) => ({ pk: `CREATOR#${creatorId}`, sk: `WHEP#${endpointId}` }),
  held: (creatorId: string) => ({ pk: `CREATOR#${creatorId}`, sk: 'WHEPS' }),
  delivery: (endpointId: string, deliveryId: string) => ({ pk: `WHEP#${endpointId}`, sk: `WHDL#${deliveryId}` }),
  due: (d: Pick<StoredWebhookDelivery, 'endpointId' | 'id'>, at: string) => ({ gsi3pk: DUE, gsi3sk: `${at}#${d.endpointId}#${d.id}` }),
};
const DUE = 'WEBHOOKS#DUE';

const base64 = z.base64();
const endpointItem = z.object({
  creatorId: z.string(),
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(webhookEventTypes)),
  secret: z.object({ ciphertext: base64, iv: base64, tag: base64, encryptedDataKey: base64 }),
  createdAt: z.string(),
  disabledAt: z.string().nullable().default(null),
  failingSince: z.string().nullable().default(null),
});
const toEndpoint = (item: unknown): StoredWebhookEndpoint => endpointItem.parse(item);

export const dynamoWebhookEndpoints = (): WebhookEndpointRepository => ({
  async create(endpoint, max) {
    const cancelled = await transact([
      {
        Update: {
          TableName: tableName(),
          Key: webhookKeys.held(endpoint.creatorId),
          UpdateExpression: 'SET #type = :type ADD held :one',
          ConditionExpression: 'attribute_not_exists(held) OR held < :max',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':type': 'WebhookEndpointsHeld', ':one': 1, ':max': max },
        },
      },
      { Put: { TableName: tableName(), Item: { ...webhookKeys.endpoint(endpoint.creatorId, endpoint.id), type: 'WebhookEndpoint', ...endpoint }, ConditionExpression: 'attribute_not_exists(pk)' } },
    ]);
    if (!cancelled) return 'created';
    if (cancelled.codes[0] === 'ConditionalCheckFailed') return 'limit';
    throw new Error(`Webhook endpoint ${endpoint.id} collided with an existing one`);
  },

  async list(creatorId) {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :ep)',
      ExpressionAttributeValues: { ':pk': `CREATOR#${creatorId}`, ':ep': 'WHEP#' },
      ScanIndexForward: false,
    });
    return items.map(toEndpoint);
  },

  async get(creatorId, endpointId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: webhookKeys.endpoint(creatorId, endpointId) }));
    return Item ? toEndpoint(Item) : undefined;
  },

  async remove(creatorId, endpointId) {
    const cancelled = await transact([
      { Delete: { TableName: tableName(), Key: webhookKeys.endpoint(creatorId, endpointId), ConditionExpression: 'attribute_exists(pk)' } },
      { Update: { TableName: tableName(), Key: webhookKeys.held(creatorId), UpdateExpression: 'ADD held :minus', ExpressionAttributeValues: { ':minus': -1 } } },
    ]);
    return cancelled === undefined;
  },

  async markFailing(endpoint, at) {
    await writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: webhookKeys.endpoint(endpoint.creatorId, endpoint.id),
          UpdateExpression: 'SET failingSince = :at',
          ConditionExpression: `attribute_exists(pk) AND ${unset('failingSince')}`,
          ExpressionAttributeValues: { ':at': at, ':null': 'NULL' },
        }),
      ),
    );
  },

  async markDelivering(endpoint) {
    await writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: webhookKeys.endpoint(endpoint.creatorId, endpoint.id),
          UpdateExpression: 'SET failingSince = :none',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':none': null },
        }),
      ),
    );
  },

  async disable(endpoint, at, notice) {
    const cancelled = await transact([
      {
        Update: {
          TableName: tableName(),
          Key: webhookKeys.endpoint(endpoint.creatorId, endpoint.id),
          UpdateExpression: 'SET disabledAt = :at',
          ConditionExpression: `attribute_exists(pk) AND ${unset('disabledAt')} AND failingSince = :since`,
          ExpressionAttributeValues: { ':at': at, ':since': endpoint.failingSince, ':null': 'NULL' },
        },
      },
      ...(notice ? [mailQueuePut(notice)] : []),
    ]);
    return cancelled === undefined;
  },

  async enable(creatorId, endpointId) {
    let enabled: StoredWebhookEndpoint | undefined;
    await writeIf(async () => {
      const { Attributes } = await documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: webhookKeys.endpoint(creatorId, endpointId),
          UpdateExpression: 'SET disabledAt = :none, failingSince = :none',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':none': null },
          ReturnValues: 'ALL_NEW',
        }),
      );
      enabled = toEndpoint(Attributes);
    });
    return enabled;
  },
});

/** The condition that an attribute is absent or null (the endpoint's `disabledAt` and `failingSince`); `:null` is 'NULL'. */
const unset = (name: string) => `(attribute_not_exists(${name}) OR attribute_type(${name}, :null))`;

const deliveryItem = z.object({
  creatorId: z.string(),
  endpointId: z.string(),
  id: z.string(),
  event: z.enum(webhookEventTypes),
  payload: z.string(),
  status: z.enum(webhookDeliveryStatuses),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
});
const toDelivery = (item: unknown): StoredWebhookDelivery => deliveryItem.parse(item);
const deliveryPut = (d: StoredWebhookDelivery) => ({
  ...webhookKeys.delivery(d.endpointId, d.id),
  type: 'WebhookDelivery',
  ...d,
  ...(d.status === 'pending' && d.nextAttemptAt ? webhookKeys.due(d, d.nextAttemptAt) : {}),
});

/** Sets the attributes of an outcome, with the due key while pending (removed otherwise). */
const outcomeUpdate = (d: StoredWebhookDelivery, o: DeliveryOutcome) => {
  const pending = o.status === 'pending' && o.nextAttemptAt !== null;
  return {
    UpdateExpression: `SET #status = :status, attempts = :attempts, lastStatusCode = :code, nextAttemptAt = :next${pending ? ', gsi3pk = :due, gsi3sk = :dueSk' : ''}${pending ? '' : ' REMOVE gsi3pk, gsi3sk'}`,
    values: {
      ':status': o.status,
      ':attempts': o.attempts,
      ':code': o.lastStatusCode,
      ':next': o.nextAttemptAt,
      ...(pending ? { ':due': DUE, ':dueSk': webhookKeys.due(d, o.nextAttemptAt!).gsi3sk } : {}),
    },
  };
};

export const dynamoWebhookDeliveries = (): WebhookDeliveryRepository => ({
  async enqueue(deliveries) {
    const written = await Promise.all(
      deliveries.map(async (d) =>
        (await writeIf(() => documentClient().send(new PutCommand({ TableName: tableName(), Item: deliveryPut(d), ConditionExpression: 'attribute_not_exists(pk)' })))) ? d : undefined,
      ),
    );
    return written.filter((d): d is StoredWebhookDelivery => d !== undefined);
  },

  async claim(delivery, leaseUntil) {
    const claimed = { ...delivery, nextAttemptAt: leaseUntil };
    const ok = await writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: webhookKeys.delivery(delivery.endpointId, delivery.id),
          UpdateExpression: 'SET nextAttemptAt = :lease, gsi3pk = :due, gsi3sk = :dueSk',
          ConditionExpression: '#status = :pending AND nextAttemptAt = :read',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':lease': leaseUntil, ':due': DUE, ':dueSk': webhookKeys.due(delivery, leaseUntil).gsi3sk, ':pending': 'pending', ':read': delivery.nextAttemptAt },
        }),
      ),
    );
    return ok ? claimed : undefined;
  },

  async settle(claimed, outcome) {
    const { UpdateExpression, values } = outcomeUpdate(claimed, outcome);
    return writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: webhookKeys.delivery(claimed.endpointId, claimed.id),
          UpdateExpression,
          ConditionExpression: '#status = :pending AND nextAttemptAt = :lease',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ...values, ':pending': 'pending', ':lease': claimed.nextAttemptAt },
        }),
      ),
    );
  },

  async due(now, limit) {
    return (await dueIndexPage(DUE, now, limit)).items.map(toDelivery);
  },

  async get(endpointId, deliveryId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: webhookKeys.delivery(endpointId, deliveryId), ConsistentRead: true }));
    return Item ? toDelivery(Item) : undefined;
  },

  async page(endpointId, cursor, limit) {
    const { Items = [], LastEvaluatedKey } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :dl)',
        ExpressionAttributeValues: { ':pk': `WHEP#${endpointId}`, ':dl': 'WHDL#' },
        ScanIndexForward: false,
        Limit: limit,
        ...(cursor ? { ExclusiveStartKey: decodeCursor(cursor, { pk: `WHEP#${endpointId}` }, { name: 'sk', prefix: 'WHDL#' }) } : {}),
      }),
    );
    return { items: Items.map(toDelivery), nextCursor: encodeCursor(LastEvaluatedKey) ?? null };
  },

  async requeue(delivery, at) {
    const o: DeliveryOutcome = { status: 'pending', attempts: delivery.attempts, lastStatusCode: delivery.lastStatusCode, nextAttemptAt: at };
    const { UpdateExpression, values } = outcomeUpdate(delivery, o);
    const ok = await writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: webhookKeys.delivery(delivery.endpointId, delivery.id),
          UpdateExpression,
          ConditionExpression: '#status IN (:pending, :failed)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ...values, ':pending': 'pending', ':failed': 'failed' },
        }),
      ),
    );
    return ok ? { ...delivery, ...o } : undefined;
  },
});
