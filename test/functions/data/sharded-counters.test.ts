import { describe, expect, it } from 'vitest';
import { hashOf, SHARDS, shardedCounter, shardOf, shardUpdate, sumNumbers } from '#data/sharded-counters.ts';

process.env['TABLE_NAME'] ??= 'unit-table';

describe('sharded counters', () => {
  it('puts each shard under its own partition key, and reads the item from before the shards with them', () => {
    const counter = shardedCounter('ENROLLED#course-1', 'COUNT', { legacy: { pk: 'COURSE#course-1', sk: 'COUNT' } });
    expect(counter.keys()).toHaveLength(SHARDS);
    expect(new Set(counter.keys().map((key) => key.pk)).size).toBe(SHARDS);
    expect(counter.key(0)).toEqual({ pk: 'ENROLLED#course-1#0', sk: 'COUNT' });
    expect(counter.readKeys()).toEqual([...counter.keys(), { pk: 'COURSE#course-1', sk: 'COUNT' }]);
  });

  it('sends one id to one shard, always, and a retried write where it went first', () => {
    expect(shardOf('order-42')).toBe(shardOf('order-42'));
    expect(shardOf('order-42')).toBe(hashOf('order-42') % SHARDS);
    for (let i = 0; i < 100; i++) expect(shardOf(undefined)).toBeGreaterThanOrEqual(0);
  });

  it('spreads 5,000 orders so that no shard takes more than 1 in 10 of them', () => {
    const hits = new Array<number>(SHARDS).fill(0);
    for (let i = 0; i < 5000; i++) hits[shardOf(`ord_${i.toString(36)}_${(i * 7919).toString(16)}`)]!++;
    expect(Math.max(...hits)).toBeLessThan(500);
    expect(Math.min(...hits)).toBeGreaterThan(0);
    const random = new Array<number>(SHARDS).fill(0);
    for (let i = 0; i < 5000; i++) random[shardOf()]!++;
    expect(Math.max(...random)).toBeLessThan(500);
  });

  it('moves one shard by the deltas that move, and writes nothing when none does', () => {
    const counter = shardedCounter('COUNTERS', 'PLATFORM');
    expect(shardUpdate(counter, { a: 0, b: undefined }, { type: 'Counters' })).toEqual([]);
    const [update] = shardUpdate(counter, { a: 2, b: 0, c: -1 }, { by: 'user-1', type: 'Counters' });
    expect(update?.Update.Key).toEqual(counter.key(shardOf('user-1')));
    expect(update?.Update.UpdateExpression).toBe('ADD #a0 :a0, #a1 :a1 SET #s0 = :s0');
    expect(update?.Update.ExpressionAttributeNames).toEqual({ '#a0': 'a', '#a1': 'c', '#s0': 'type' });
    expect(update?.Update.ExpressionAttributeValues).toEqual({ ':a0': 2, ':a1': -1, ':s0': 'Counters' });
  });

  it('sums the shards figure by figure, keys and text left out', () => {
    const sums = sumNumbers([
      { pk: { S: 'X#0' }, sk: { S: 'S' }, type: { S: 'Counters' }, a: { N: '2' }, b: { N: '-1' } },
      { pk: { S: 'X#5' }, sk: { S: 'S' }, a: { N: '3' } },
      { pk: { S: 'X' }, sk: { S: 'S' }, b: { N: '4' }, c: { N: '0' } },
    ]);
    expect(sums).toEqual({ a: 5, b: 3, c: 0 });
    expect(sumNumbers([])).toEqual({});
  });
});
