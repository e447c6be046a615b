import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { webhookEventTypes } from '#contracts/webhooks.ts';
import type { StoredWebhookEndpoint, WebhookEndpointRepository } from '#core/webhooks/ports.ts';
import { documentClient, queryAll, tableName, transact } from '#data/table.ts';

/**
 * Webhook endpoints (issue 31 point 4, decision 0053).
 * Endpoint: pk CREATOR#<creatorId>  sk WHEP#<endpointId>   url, events, secret (sealed for the creator and the endpoint,
 *                                                          adapters/envelope-cipher.ts), createdAt, disabledAt: the
 *                                                          creator's list (endpointId is a ULID: newest first by sk), and
 *                                                          what a stream batch reads once per creator to find the
 *                                                          endpoints subscribed to an event (one Query)
 * Held:     pk CREATOR#<creatorId>  sk WHEPS               held: how many endpoints the creator has; the create
 *                                                          transaction takes a place only below the cap, delete gives it back
 */
export const webhookKeys = {
  endpoint: (creatorId: string, endpointId: string) => ({ pk: `CREATOR#${creatorId}`, sk: `WHEP#${endpointId}` }),
  held: (creatorId: string) => ({ pk: `CREATOR#${creatorId}`, sk: 'WHEPS' }),
};

const base64 = z.base64();
const endpointItem = z.object({
  creatorId: z.string(),
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(webhookEventTypes)),
  secret: z.object({ ciphertext: base64, iv: base64, tag: base64, encryptedDataKey: base64 }),
  createdAt: z.string(),
  disabledAt: z.string().nullable().default(null),
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
});
