import { BatchGetCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { batchGet, resetDocumentClient } from '#data/table.ts';

// What DynamoDB Local never does: leave keys unprocessed under load. batchGet asks again for exactly those.
const dynamo = mockClient(DynamoDBDocumentClient);
afterEach(() => dynamo.reset());
afterAll(() => {
  dynamo.restore();
  resetDocumentClient();
});

describe('batchGet under throttling', () => {
  it('asks again for the keys left unprocessed until every item is read', async () => {
    resetDocumentClient();
    const table = 'unit-test-table';
    dynamo
      .on(BatchGetCommand)
      .resolvesOnce({ Responses: { [table]: [{ pk: 'a' }] }, UnprocessedKeys: { [table]: { Keys: [{ pk: 'b', sk: 'T' }] } } })
      .resolvesOnce({ Responses: { [table]: [{ pk: 'b' }] } });
    expect(await batchGet([{ pk: 'a', sk: 'T' }, { pk: 'b', sk: 'T' }])).toEqual([{ pk: 'a' }, { pk: 'b' }]);
    const calls = dynamo.commandCalls(BatchGetCommand);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.args[0].input.RequestItems?.[table]?.Keys).toEqual([{ pk: 'b', sk: 'T' }]);
  });

  it('gives up with an error after repeated throttling rather than answer with items missing', async () => {
    resetDocumentClient();
    const table = 'unit-test-table';
    dynamo.on(BatchGetCommand).resolves({ Responses: { [table]: [] }, UnprocessedKeys: { [table]: { Keys: [{ pk: 'a', sk: 'T' }] } } });
    await expect(batchGet([{ pk: 'a', sk: 'T' }])).rejects.toThrow('BatchGetItem left 1 keys unread after 8 attempts');
  }, 20_000);
});
