import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { NumberValue } from '@aws-sdk/lib-dynamodb';
import { type CountedChange, type CounterMove, StreamApplyError, type StreamCounters } from '#core/streams/ports.ts';
import { creatorStats, enrolledCounter, platformCourseCounters } from '#data/courses.ts';
import { platformCounters } from '#data/counters.ts';
import { type CounterAdds, salesAddsOf } from '#data/orders.ts';
import { type ShardedCounter, shardOf } from '#data/sharded-counters.ts';
import { addUpdate, documentClient, failedAt, tableName, transact } from '#data/table.ts';

/**
 * The counters the stream aggregator keeps (functions/streams/aggregator.ts, docs/decisions/0040-stream-aggregator.md),
 * and its checkpoints:
 * Checkpoint: pk STREAMCHECKPOINT#<stream shard id>  sk CHECKPOINT  sequence (the last applied record's sequence
 *             number, left-padded with zeros to 40 digits so that text order is number order), at
 * A batch of a shard's records is applied in transactions of up to 100 items: each ADDs once to every counter item its
 * records move (the sum of their moves) and moves the checkpoint from the value read to its last record's sequence, on
 * the condition that the checkpoint is still that value. Records at or before the checkpoint are skipped, so a replayed
 * batch (Lambda's retry after a crash, a bisected batch, the local poller's retry) moves nothing twice, and a transaction
 * that fails leaves nothing half-applied. Records of one shard come in order and one batch at a time; the shards of a
 * stream are independent (an item's records are all in one shard).
 */
export const checkpointKey = (shardId: string) => ({ pk: `STREAMCHECKPOINT#${shardId}`, sk: 'CHECKPOINT' });

/** A sequence number as comparable text (stream sequence numbers are at most 40 digits). */
export const sequenceText = (sequence: string): string => {
  if (!/^\d{1,40}$/.test(sequence)) throw new Error(`not a stream sequence number: ${sequence}`);
  return sequence.padStart(40, '0');
};

/** At most this many items in one transaction: DynamoDB's 100, one of them the checkpoint. */
const MAX_COUNTER_ITEMS = 99;

/** A counter's shard that `by` picks. */
const shardKey = (counter: ShardedCounter, by: string) => counter.key(shardOf(by, counter.keys().length));

/** Only the figures that move. */
const moving = (adds: Record<string, number>) => Object.fromEntries(Object.entries(adds).filter(([, n]) => n !== 0));

/**
 * The counter items one move ADDs to: an order's sales (data/orders.ts salesAddsOf); an enrolment's active and
 * completed figures on the course's enrolled count, the creator's stats and the platform's counters. Every move of a
 * stream shard lands on the counter shard its stream shard's id picks (`by`), not the order's or the learner's: a
 * batch's moves of one counter are then ONE item's ADD (decision 0043), and the counter's writers are the stream's
 * shards, one batch at a time each, not the orders. Readers sum every shard, so which one holds a move changes nothing.
 */
const addsOf = (move: CounterMove, by: string): CounterAdds[] => {
  if (move.kind === 'sales') return salesAddsOf(move.order, move.at, move.move, by);
  const figures = { students: move.students, completions: move.completions };
  return [
    ...(move.courseCount && move.students !== 0 ? [{ key: shardKey(enrolledCounter(move.courseId), by), type: 'EnrolledCount', adds: { enrolled: move.students } }] : []),
    { key: shardKey(creatorStats(move.creatorId), by), type: 'CreatorStats', adds: moving(figures) },
    { key: shardKey(platformCounters, by), type: 'Counters', adds: moving(platformCourseCounters(figures)) },
  ].filter((one) => Object.keys(one.adds).length > 0);
};

const idOf = (key: { pk: string; sk: string }) => `${key.pk}\u0000${key.sk}`;
const bigOf = (value: number | NumberValue): bigint => (typeof value === 'number' ? BigInt(value) : BigInt(value.value));

/** Several moves of the same items as one ADD per item (packed figures summed as exact integers). */
const merge = (adds: readonly CounterAdds[]) => {
  const items = new Map<string, { key: { pk: string; sk: string }; type: string; adds: Map<string, { sum: bigint; packed: boolean }> }>();
  for (const one of adds) {
    const id = idOf(one.key);
    const item = items.get(id) ?? { key: one.key, type: one.type, adds: new Map() };
    items.set(id, item);
    for (const [name, value] of Object.entries(one.adds)) {
      const sum = item.adds.get(name) ?? { sum: 0n, packed: false };
      item.adds.set(name, { sum: sum.sum + bigOf(value), packed: sum.packed || typeof value !== 'number' });
    }
  }
  return [...items.values()].flatMap(({ key, type, adds: sums }) => {
    // A plain figure that nets to zero moves nothing; a packed one is ADDed all the same (its attribute says the course or
    // coupon was in the move, as in the order's own transaction before).
    const moved = Object.fromEntries(
      [...sums.entries()].filter(([, v]) => v.packed || v.sum !== 0n).map(([name, v]) => [name, v.packed || v.sum > BigInt(Number.MAX_SAFE_INTEGER) || v.sum < -BigInt(Number.MAX_SAFE_INTEGER) ? NumberValue.from(v.sum.toString()) : Number(v.sum)]),
    );
    return Object.keys(moved).length > 0 ? [addUpdate(key, moved, { type })] : [];
  });
};

const readCheckpoint = async (shardId: string): Promise<string | undefined> => {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: checkpointKey(shardId), ConsistentRead: true }));
  return typeof Item?.['sequence'] === 'string' ? Item['sequence'] : undefined;
};

/** Consecutive runs of changes whose counter items fit one transaction (a change is never split). */
const chunksOf = (changes: readonly CountedChange[], by: string): CountedChange[][] => {
  const chunks: CountedChange[][] = [];
  let chunk: CountedChange[] = [];
  let keys = new Set<string>();
  for (const change of changes) {
    const own = new Set(change.moves.flatMap((move) => addsOf(move, by)).map((a) => idOf(a.key)));
    const union = new Set([...keys, ...own]);
    if (union.size > MAX_COUNTER_ITEMS && chunk.length > 0) {
      chunks.push(chunk);
      chunk = [];
      keys = own;
    } else keys = union;
    chunk.push(change);
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
};

const ATTEMPTS = 5;

export const dynamoStreamCounters = (): StreamCounters => ({
  async apply(shardId, changes) {
    let applied = 0;
    let transactions = 0;
    const total = changes.length;
    for (let attempt = 1; ; attempt++) {
      const checkpoint = await readCheckpoint(shardId);
      const pending = changes.filter((change) => checkpoint === undefined || sequenceText(change.sequence) > checkpoint);
      let previous = checkpoint;
      let raced = false;
      for (const chunk of chunksOf(pending, shardId)) {
        const updates = merge(chunk.flatMap((change) => change.moves.flatMap((move) => addsOf(move, shardId))));
        const last = sequenceText(chunk[chunk.length - 1]!.sequence);
        // A chunk that moves nothing needs no write: its records are skipped again on a replay, for nothing.
        if (updates.length === 0) continue;
        let cancelled;
        try {
          cancelled = await transact([
            {
              Update: {
                TableName: tableName(),
                Key: checkpointKey(shardId),
                UpdateExpression: 'SET #seq = :last, #at = :at, #type = :type',
                ConditionExpression: previous === undefined ? 'attribute_not_exists(#seq)' : '#seq = :previous',
                ExpressionAttributeNames: { '#seq': 'sequence', '#at': 'at', '#type': 'type' },
                ExpressionAttributeValues: { ':last': last, ':at': new Date().toISOString(), ':type': 'StreamCheckpoint', ...(previous === undefined ? {} : { ':previous': previous }) },
              },
            },
            ...updates,
          ]);
        } catch (error) {
          throw new StreamApplyError(chunk[0]!.sequence, error);
        }
        if (cancelled && failedAt(cancelled, 0)) {
          // Another invocation applied some of these meanwhile: read the checkpoint again, and apply what is left.
          raced = true;
          break;
        }
        transactions++;
        applied += chunk.length;
        previous = last;
      }
      if (!raced) return { applied, skipped: total - applied, transactions };
      if (attempt >= ATTEMPTS) throw new StreamApplyError(changes[0]!.sequence, new Error(`the checkpoint of shard ${shardId} kept moving`));
    }
  },
});
