import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall, type NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import * as z from 'zod';
import { apiScopes } from '#contracts/api-keys.ts';
import type { ApiKeyGrant, ApiKeyRepository, StoredApiKey } from '#core/api-keys/ports.ts';
import { bucketShape, takeToken } from '#core/api-keys/rate-limit.ts';
import { documentClient, queryAll, tableName, transact } from '#data/table.ts';

/**
 * API keys of the public API (issue 31, decision 0051). The key itself is never stored: only its SHA-256 (hex).
 * Key:      pk CREATOR#<creatorId>  sk APIKEY#<keyId>      name, scopes, prefix, last4, hash, createdAt, lastUsedAt: the
 *                                                          creator's list (keyId is a ULID: newest first by sk, at most
 *                                                          API_KEYS_MAX of them)
 * Held:     pk CREATOR#<creatorId>  sk APIKEYS             held: how many keys the creator holds; the create transaction
 *                                                          takes a place only below the cap, revoke gives it back
 * Lookup:   pk APIKEYHASH#<sha256>  sk APIKEY              creatorId, keyId, scopes, lastUsedAt: what the authorizer
 *                                                          reads (one GetItem per call); written and deleted in the same
 *                                                          transactions as the key, so a revoked key is refused from
 *                                                          the next call. `lastUsedAt` is set on both at most once a
 *                                                          minute per key (a conditional update, no write per call).
 *                                                          tat: the key's rate-limit bucket (GCRA, ms since epoch,
 *                                                          decision 0051), moved by one conditional update per call
 */
export const apiKeyKeys = {
  key: (creatorId: string, keyId: string) => ({ pk: `CREATOR#${creatorId}`, sk: `APIKEY#${keyId}` }),
  held: (creatorId: string) => ({ pk: `CREATOR#${creatorId}`, sk: 'APIKEYS' }),
  lookup: (hash: string) => ({ pk: `APIKEYHASH#${hash}`, sk: 'APIKEY' }),
};

const keyItem = z.object({
  creatorId: z.string(),
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.enum(apiScopes)),
  prefix: z.string(),
  last4: z.string(),
  hash: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable().default(null),
});
const toKey = (item: unknown): StoredApiKey => keyItem.parse(item);
const lookupItem = z.object({ creatorId: z.string(), keyId: z.string(), scopes: z.array(z.enum(apiScopes)), lastUsedAt: z.string().nullable().default(null) });
const toGrant = (item: unknown): ApiKeyGrant => lookupItem.parse(item);

export const dynamoApiKeys = (): ApiKeyRepository => ({
  async create(key, max) {
    const cancelled = await transact([
      {
        Update: {
          TableName: tableName(),
          Key: apiKeyKeys.held(key.creatorId),
          UpdateExpression: 'SET #type = :type ADD held :one',
          ConditionExpression: 'attribute_not_exists(held) OR held < :max',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':type': 'ApiKeysHeld', ':one': 1, ':max': max },
        },
      },
      { Put: { TableName: tableName(), Item: { ...apiKeyKeys.key(key.creatorId, key.id), type: 'ApiKey', ...key }, ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Put: {
          TableName: tableName(),
          Item: { ...apiKeyKeys.lookup(key.hash), type: 'ApiKeyLookup', creatorId: key.creatorId, keyId: key.id, scopes: key.scopes, lastUsedAt: null },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
    ]);
    if (!cancelled) return 'created';
    if (cancelled.codes[0] === 'ConditionalCheckFailed') return 'limit';
    throw new Error(`API key ${key.id} collided with an existing key or hash`);
  },

  async list(creatorId) {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :key)',
      ExpressionAttributeValues: { ':pk': `CREATOR#${creatorId}`, ':key': 'APIKEY#' },
      ScanIndexForward: false,
    });
    return items.map(toKey);
  },

  async revoke(creatorId, keyId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: apiKeyKeys.key(creatorId, keyId), ConsistentRead: true }));
    if (!Item) return false;
    const key = toKey(Item);
    const cancelled = await transact([
      { Delete: { TableName: tableName(), Key: apiKeyKeys.key(creatorId, keyId), ConditionExpression: 'attribute_exists(pk)' } },
      { Delete: { TableName: tableName(), Key: apiKeyKeys.lookup(key.hash) } },
      { Update: { TableName: tableName(), Key: apiKeyKeys.held(creatorId), UpdateExpression: 'ADD held :minus', ExpressionAttributeValues: { ':minus': -1 } } },
    ]);
    return cancelled === undefined; // a revoke that lost a race with another: already revoked (404), counted once
  },

  async findByHash(hash) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: apiKeyKeys.lookup(hash) }));
    return Item ? toGrant(Item) : undefined;
  },

  async takeToken(hash, now, limits, attempt = 1) {
    // Calls racing on one key each retry on what the other wrote; past a few rounds the call is refused for a second.
    if (attempt > 5) return { admitted: false, retryAfterSeconds: 1 };
    const { interval, tolerance } = bucketShape(limits);
    const key = apiKeyKeys.lookup(hash);
    const update = async (expression: string, condition: string, values: Record<string, number>) => {
      try {
        const written = await documentClient().send(
          new UpdateCommand({ TableName: tableName(), Key: key, UpdateExpression: expression, ConditionExpression: condition, ExpressionAttributeValues: values, ReturnValues: 'UPDATED_NEW', ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }),
        ).then((out) => out.Attributes);
        return { written: true as const, tat: Number(written?.['tat']) };
      } catch (error) {
        if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
        // The item as it stood, marshalled (the document client does not translate errors).
        const item = (error as { Item?: Parameters<typeof unmarshall>[0] }).Item;
        return { written: false as const, item: item && (unmarshall(item) as Record<string, NativeAttributeValue>) };
      }
    };
    // A busy key's bucket is ahead of now: move it one interval on while it stays within the tolerance.
    const busy = await update('SET tat = tat + :interval', 'attribute_exists(pk) AND tat >= :now AND tat <= :limit', { ':interval': interval, ':now': now, ':limit': now + tolerance });
    if (busy.written) return { admitted: true, tat: busy.tat };
    if (busy.item === undefined) return 'revoked';
    const stored = busy.item['tat'];
    // An idle key (never used, or behind now): its bucket is full; it starts again from now.
    if (typeof stored !== 'number' || stored < now) {
      const idle = await update('SET tat = :next', 'attribute_exists(pk) AND (attribute_not_exists(tat) OR tat < :now)', { ':next': now + interval, ':now': now });
      if (idle.written) return { admitted: true, tat: idle.tat };
      if (idle.item === undefined) return 'revoked';
      return this.takeToken(hash, now, limits, attempt + 1); // another call moved it meanwhile: decide again on what it wrote
    }
    const decision = takeToken(stored, now, limits);
    // Within the tolerance yet not written: another call moved it between the read and the write; decide again.
    return decision.admitted ? this.takeToken(hash, now, limits, attempt + 1) : decision;
  },

  async touch(grant, hash, at, staleBefore) {
    const stale = 'attribute_exists(pk) AND (attribute_type(lastUsedAt, :null) OR lastUsedAt < :stale)';
    const values = { ':at': at, ':stale': staleBefore, ':null': 'NULL' };
    // Both or neither; a failed condition means another call recorded this minute already (or the key was revoked).
    await transact([
      { Update: { TableName: tableName(), Key: apiKeyKeys.lookup(hash), UpdateExpression: 'SET lastUsedAt = :at', ConditionExpression: stale, ExpressionAttributeValues: values } },
      { Update: { TableName: tableName(), Key: apiKeyKeys.key(grant.creatorId, grant.keyId), UpdateExpression: 'SET lastUsedAt = :at', ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeValues: { ':at': at } } },
    ]);
  },
});
