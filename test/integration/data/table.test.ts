import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { batchGet, cancellationOf, documentClient, failedAt, resetDocumentClient, tableName, transact, writeIf } from '#data/table.ts';
import { useLocalCloudEnv } from '../support.ts';
import { rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const put = (pk: string, extra: Record<string, unknown> = {}, condition?: string) => ({
  Put: { TableName: tableName(), Item: { pk, sk: 'T', ...extra }, ...(condition ? { ConditionExpression: condition } : {}) },
});

describe('the table helpers (DynamoDB Local)', () => {
  it('keeps one document client per process until told to forget it', () => {
    const client = documentClient();
    expect(documentClient()).toBe(client);
    resetDocumentClient();
    expect(documentClient()).not.toBe(client);
  });

  it('reads up to 100 items by key in one batch, with a projection, leaving out the missing; more keys are refused', async () => {
    const prefix = unique('batch');
    await transact(Array.from({ length: 60 }, (_, i) => put(`${prefix}-${i}`, { n: i, extra: 'x' })).slice(0, 25));
    await transact(Array.from({ length: 60 }, (_, i) => put(`${prefix}-${i}`, { n: i, extra: 'x' })).slice(25, 50));
    const keys = Array.from({ length: 100 }, (_, i) => ({ pk: `${prefix}-${i}`, sk: 'T' }));
    const found = await batchGet(keys, { projection: 'pk, n' });
    expect(found).toHaveLength(50);
    expect(found.every((item) => Object.keys(item).sort().join() === 'n,pk')).toBe(true);
    expect(found.map((item) => item['n']).sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 50 }, (_, i) => i));
    await expect(batchGet([...keys, { pk: 'one-more', sk: 'T' }])).rejects.toThrow('at most 100 keys');
  });

  it('writes a transaction whole and answers undefined', async () => {
    const [a, b] = [unique('tx-a'), unique('tx-b')];
    expect(await transact([put(a), put(b)])).toBeUndefined();
    expect(await rawItem({ pk: a, sk: 'T' })).toBeDefined();
    expect(await rawItem({ pk: b, sk: 'T' })).toBeDefined();
  });

  it('answers a failed condition with the code of each item and the values an item asked for, writing nothing', async () => {
    const [taken, fresh] = [unique('tx-taken'), unique('tx-fresh')];
    await transact([put(taken, { n: 7 })]);
    const cancelled = await transact([
      put(fresh, {}, 'attribute_not_exists(pk)'),
      {
        Update: {
          TableName: tableName(),
          Key: { pk: taken, sk: 'T' },
          UpdateExpression: 'SET n = :n',
          ConditionExpression: 'n > :n',
          ExpressionAttributeValues: { ':n': 100 },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        },
      },
    ]);
    expect(cancelled?.codes).toEqual(['None', 'ConditionalCheckFailed']);
    expect(failedAt(cancelled!, 0)).toBe(false);
    expect(failedAt(cancelled!, 1)).toBe(true);
    expect(cancelled?.items[1]).toMatchObject({ pk: taken, n: 7 });
    expect(await rawItem({ pk: fresh, sk: 'T' })).toBeUndefined();
  });

  it('lets concurrent transactions on one item all land, retrying their conflicts', async () => {
    const pk = unique('tx-hot');
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        transact([
          { Update: { TableName: tableName(), Key: { pk, sk: 'T' }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } } },
          put(`${pk}-${i}`),
        ]),
      ),
    );
    expect(await rawItem({ pk, sk: 'T' })).toMatchObject({ n: 12 });
  });

  it('throws what is not a failed condition', async () => {
    await expect(transact([put(unique('tx-bad'), {}, 'attribute_not_exists(')])).rejects.toThrow();
    const pk = unique('tx-type');
    await transact([put(pk, { n: 'text' })]);
    await expect(
      transact([{ Update: { TableName: tableName(), Key: { pk, sk: 'T' }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } } }]),
    ).rejects.toThrow();
  });

  it('reads the reasons only of a cancelled transaction', () => {
    expect(cancellationOf(new Error('boom'))).toBeUndefined();
    expect(cancellationOf(undefined)).toBeUndefined();
    expect(cancellationOf(Object.assign(new Error('x'), { name: 'TransactionCanceledException' }))).toEqual({ codes: [], items: [] });
  });

  it('writes a single item under a condition: true when written, false when the condition failed, and throws anything else', async () => {
    const pk = unique('write-if');
    const write = () => documentClient().send(new PutCommand({ TableName: tableName(), Item: { pk, sk: 'T' }, ConditionExpression: 'attribute_not_exists(pk)' }));
    expect(await writeIf(write)).toBe(true);
    expect(await writeIf(write)).toBe(false);
    await expect(
      writeIf(() => documentClient().send(new UpdateCommand({ TableName: `${tableName()}-missing`, Key: { pk, sk: 'T' }, UpdateExpression: 'SET a = :a', ExpressionAttributeValues: { ':a': 1 } }))),
    ).rejects.toThrow(/resource not found|ResourceNotFound|non-existent table/i);
  });
});
