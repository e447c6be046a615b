import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import * as z from 'zod';
import type { IdempotencyStore } from '#core/public-api/ports.ts';
import { documentClient, tableName } from '#data/table.ts';

/**
 * Idempotency-Keys of the public API's POSTs (issue 31, decision 0052).
 * Key:  pk APIIDEM#<creatorId>#<key>  sk APIIDEM  state ('pending' | 'done'), requestHash, status?, body? (JSON),
 *       expiresAt (the table's TTL: 24 h after the first request)
 * One partition per key (never the creator's busy partition). `begin` is a conditional Put that returns the record
 * already there (ReturnValuesOnConditionCheckFailure): one write, no read, whatever the race.
 */
export const apiRequestKeys = {
  idempotency: (creatorId: string, key: string) => ({ pk: `APIIDEM#${creatorId}#${key}`, sk: 'APIIDEM' }),
};

const stored = z.discriminatedUnion('state', [
  z.object({ state: z.literal('pending'), requestHash: z.string() }),
  z.object({ state: z.literal('done'), requestHash: z.string(), status: z.number().int(), body: z.string() }),
]);

export const dynamoIdempotency = (): IdempotencyStore => ({
  async begin(creatorId, key, requestHash, { now, expiresAt }) {
    try {
      await documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...apiRequestKeys.idempotency(creatorId, key), type: 'ApiIdempotencyKey', state: 'pending', requestHash, expiresAt },
          // An expired record the TTL has not removed yet counts as gone.
          ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now',
          ExpressionAttributeValues: { ':now': now },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return undefined;
    } catch (error) {
      // The item as it stood, marshalled (the document client does not translate errors).
      const old = (error as { name?: string }).name === 'ConditionalCheckFailedException' ? (error as { Item?: Parameters<typeof unmarshall>[0] }).Item : undefined;
      if (!old) throw error;
      const record = stored.parse(unmarshall(old));
      return record.state === 'done' ? { ...record, body: JSON.parse(record.body) as unknown } : record;
    }
  },
  async complete(creatorId, key, answer, expiresAt) {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: apiRequestKeys.idempotency(creatorId, key),
        UpdateExpression: 'SET #state = :done, #status = :status, body = :body, expiresAt = :expires',
        ExpressionAttributeNames: { '#state': 'state', '#status': 'status' },
        ExpressionAttributeValues: { ':done': 'done', ':status': answer.status, ':body': JSON.stringify(answer.body), ':expires': expiresAt },
      }),
    );
  },
  async abandon(creatorId, key) {
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: apiRequestKeys.idempotency(creatorId, key), ConditionExpression: '#state = :pending', ExpressionAttributeNames: { '#state': 'state' }, ExpressionAttributeValues: { ':pending': 'pending' } })).catch((error: unknown) => {
      if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    });
  },
});
