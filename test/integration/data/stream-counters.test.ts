import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, type _Record as StreamRecordOut } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CountedChange, EnrolmentMove, SalesMove } from '#core/streams/ports.ts';
import { creatorStats, enrolledCounter } from '#data/courses.ts';
import { dynamoOrders, orderKeys } from '#data/orders.ts';
import { readCounter } from '#data/sharded-counters.ts';
import { checkpointKey, dynamoStreamCounters, sequenceText } from '#data/stream-counters.ts';
import { handler } from '#functions/streams/aggregator.ts';
import { pendingOrder } from '#test/functions/fakes/orders.ts';
import { eventually, outputs, useLocalCloudEnv } from '../support.ts';
import { rawItem, unique } from './data-support.ts';

/**
 * The stream aggregator's counters (docs/decisions/0040-stream-aggregator.md): applied once per record, whatever
 * replays, through the data module and through the real stream of DynamoDB Local that the local cloud's poller reads.
 */
beforeAll(useLocalCloudEnv);

const AT = '2026-11-25T10:00:00.000Z';
const sale = (creatorId: string, id: string, amount = 1000): SalesMove => ({
  kind: 'sales',
  order: { id, creatorId, courseId: 'course-1', couponCode: null },
  at: AT,
  move: { revenue: amount, sales: 1, discount: 0, refunds: 0 },
});
const month = (creatorId: string) => readCounter(orderKeys.month(creatorId, AT), { attributes: ['revenue', 'sales'], consistent: true });

describe('stream counters (DynamoDB Local)', () => {
  it('applies a shard\'s changes once: the batch again, or a replay from inside it, moves only what is new', async () => {
    const counters = dynamoStreamCounters();
    const shardId = unique('shard');
    const creatorId = unique('creator');
    const changes: CountedChange[] = [1, 2, 3].map((n) => ({ sequence: String(100 + n), moves: [sale(creatorId, `o${n}`)] }));
    expect(await counters.apply(shardId, changes)).toEqual({ applied: 3, skipped: 0, transactions: 1 });
    expect(await rawItem(checkpointKey(shardId))).toMatchObject({ sequence: sequenceText('103') });
    // Lambda's retry of the same batch after a crash that came after the transaction.
    expect(await counters.apply(shardId, changes)).toEqual({ applied: 0, skipped: 3, transactions: 0 });
    // A bisected or resumed batch that overlaps what was applied.
    const more: CountedChange[] = [changes[2]!, { sequence: '104', moves: [sale(creatorId, 'o4')] }, { sequence: '105', moves: [] }];
    expect(await counters.apply(shardId, more)).toMatchObject({ applied: 2, skipped: 1 });
    expect(await month(creatorId)).toEqual({ revenue: 4000, sales: 4 });
  });

  it("puts a batch's moves of a counter on ONE of its shards (the stream shard's): 200 enrolments and sales, one transaction of 6 items", async () => {
    const counters = dynamoStreamCounters();
    const shardId = unique('shard');
    const creatorId = unique('creator');
    const courseId = unique('course');
    const enrolment = (n: number): EnrolmentMove => ({ kind: 'enrolment', courseId, creatorId, learnerId: `learner-${n}`, students: 1, completions: 0, courseCount: true });
    // 200 buyers: by their own ids they would spread over 16 + 16 + 64 + 16 + 16 shards (two transactions and more).
    const changes: CountedChange[] = Array.from({ length: 200 }, (_, n) => ({ sequence: String(5000 + n), moves: [enrolment(n), sale(creatorId, `b${n}`)] }));
    expect(await counters.apply(shardId, changes)).toEqual({ applied: 200, skipped: 0, transactions: 1 });
    const shards = async (keys: { pk: string; sk: string }[], attribute: string) =>
      (await Promise.all(keys.map(rawItem))).filter((item) => item !== undefined).map((item) => item[attribute]);
    expect(await shards(enrolledCounter(courseId).keys(), 'enrolled')).toEqual([200]);
    expect(await shards(creatorStats(creatorId).keys(), 'students')).toEqual([200]);
    expect(await month(creatorId)).toEqual({ revenue: 200_000, sales: 200 });
  });

  it('splits a batch that moves more than a transaction holds, and a replay of it doubles nothing', async () => {
    const counters = dynamoStreamCounters();
    const shardId = unique('shard');
    // 60 creators: 120 counter items (each one month and one day shard), more than one transaction's 100.
    const creators = Array.from({ length: 60 }, (_, i) => unique(`wide-${i}`));
    const changes: CountedChange[] = creators.map((creatorId, i) => ({ sequence: String(1000 + i), moves: [sale(creatorId, `w${i}`, 100 + i)] }));
    const first = await counters.apply(shardId, changes);
    expect(first.applied).toBe(60);
    expect(first.transactions).toBeGreaterThan(1);
    expect(await counters.apply(shardId, changes)).toMatchObject({ applied: 0, skipped: 60 });
    const figures = await Promise.all(creators.map(month));
    expect(figures).toEqual(creators.map((_, i) => ({ revenue: 100 + i, sales: 1 })));
  });

  it('the real stream: a paid order is counted by the local poller, and its records handed over again (a crash after applying) move nothing', async () => {
    const orders = dynamoOrders();
    const creatorId = unique('creator');
    const o = pendingOrder({ id: unique('order'), creatorId, courseId: 'course-1', amount: 2500 });
    await orders.create(o);
    await orders.markPaid({ event: { id: unique('evt'), type: 'checkout.session.completed' }, orderId: o.id, paid: { amount: 2500, discount: 0, buyerEmail: 'ann@example.com', learnerId: 'l1', paymentIntentId: unique('pi'), paidAt: AT } });
    expect(await eventually(() => month(creatorId), (f) => f['sales'] === 1, 10_000)).toEqual({ revenue: 2500, sales: 1 });

    // The order's records, read from DynamoDB Local's stream as Lambda reads them, with their shard.
    const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
    const dynamo = new DynamoDBClient({ region: outputs().Region, endpoint: outputs().DynamoDbEndpoint, credentials });
    const streams = new DynamoDBStreamsClient({ region: outputs().Region, endpoint: outputs().DynamoDbEndpoint, credentials });
    try {
      const streamArn = (await dynamo.send(new DescribeTableCommand({ TableName: outputs().TableName }))).Table!.LatestStreamArn!;
      const shards = (await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }))).StreamDescription?.Shards ?? [];
      const found: { shardId: string; records: StreamRecordOut[] }[] = [];
      for (const shard of shards) {
        let iterator = (await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shard.ShardId!, ShardIteratorType: 'TRIM_HORIZON' }))).ShardIterator;
        const records: StreamRecordOut[] = [];
        while (iterator) {
          const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
          // The order item's own records (its receipt's mark, written by the receipts reaction, shares its partition).
          records.push(...(page.Records ?? []).filter((r) => r.dynamodb?.Keys?.['pk']?.S === `ORDER#${o.id}` && r.dynamodb?.Keys?.['sk']?.S === 'ORDER'));
          if ((page.Records ?? []).length === 0) break;
          iterator = page.NextShardIterator;
        }
        if (records.length > 0) found.push({ shardId: shard.ShardId!, records });
      }
      expect(found.flatMap((f) => f.records.map((r) => r.eventName))).toEqual(['INSERT', 'MODIFY']);
      for (const { shardId, records } of found) {
        const Records = records.map((r) => ({ eventName: r.eventName, eventSource: 'aws:dynamodb', eventSourceARN: streamArn, dynamodb: { ...r.dynamodb, ApproximateCreationDateTime: undefined } }) as DynamoDBRecord);
        expect(await handler({ Records, shardId })).toEqual({ batchItemFailures: [], state: {} });
      }
      expect(await month(creatorId)).toEqual({ revenue: 2500, sales: 1 });
    } finally {
      dynamo.destroy();
      streams.destroy();
    }
  });

  it('refuses a batch without its shard id rather than applying it unchecked', async () => {
    await expect(handler({ Records: [{ dynamodb: { SequenceNumber: '1' } }] })).rejects.toThrow(/shardId/);
  });
});
