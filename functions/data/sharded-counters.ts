import { type AttributeValue, BatchGetItemCommand, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { NumberValue } from '@aws-sdk/lib-dynamodb';
import { addUpdate, documentClient, tableName, transact } from '#data/table.ts';

/**
 * Sharded counters (issue 28 point 3, docs/decisions/0035-no-hot-items.md): a counter that many writers move (the
 * platform's totals, a creator's stats and sales, a course's enrolments, an affiliate's figures) is N items, each under
 * its own partition key `<family>#<shard>`, and a write ADDs to one of them: the shard a hash of the writer's id picks
 * (an order, a user: a retried write lands where it landed before), or a random one when the writer has no id. A read
 * sums the N items of one or more counters in BatchGetItem calls (100 keys each, side by side). No item is written by
 * more than about 1 in N of the writers: with N = 16, 5,000 orders of one flash sale put at most ~7% on any one item.
 */
export const SHARDS = 16;

/** FNV-1a over the text's UTF-16 code units: a fast, even spread of ids over the shards (not a secret). */
export const hashOf = (text: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
};

/** The shard a write lands on: the hash of `by` (an id) when given, otherwise a random one. */
export const shardOf = (by?: string, shards = SHARDS): number => (by === undefined ? Math.floor(Math.random() * shards) : hashOf(by) % shards);

export type ItemKey = { pk: string; sk: string };

/**
 * One counter: the key of each of its shards (all under distinct partition keys), and the keys a read sums: the shards
 * and, when the counter was one item before the shards, that item too (so a table from before reads the same totals
 * before and after the migration moves it into shard 0: data/sharded-counters.ts moveToShard).
 */
export interface ShardedCounter {
  key(shard: number): ItemKey;
  keys(): ItemKey[];
  readKeys(): ItemKey[];
}

/** The counter whose shard `s` is `pk <base>#<s>`, sk `sk`; `legacy` is its item from before the shards. */
export const shardedCounter = (base: string, sk: string, options: { legacy?: ItemKey; shards?: number } = {}): ShardedCounter => {
  const keys = () => Array.from({ length: options.shards ?? SHARDS }, (_, shard) => ({ pk: `${base}#${shard}`, sk }));
  return {
    key: (shard) => ({ pk: `${base}#${shard}`, sk }),
    keys,
    readKeys: () => [...keys(), ...(options.legacy ? [options.legacy] : [])],
  };
};

/**
 * The transaction item that ADDs `deltas` to one shard of `counter` (none when nothing moves), chosen by `by` (see
 * shardOf), with the item's `type` and any `set` fields.
 */
export const shardUpdate = (
  counter: ShardedCounter,
  deltas: Record<string, number | NumberValue | undefined>,
  options: { by?: string; type: string; set?: Record<string, unknown> },
) => {
  const moved = Object.fromEntries(
    // A packed figure is ADDed even when it moves nothing: its attribute says the course or coupon was in the move.
    Object.entries(deltas).filter((entry): entry is [string, number | NumberValue] => entry[1] !== undefined && entry[1] !== 0),
  );
  if (Object.keys(moved).length === 0) return [];
  return [addUpdate(counter.key(shardOf(options.by, counter.keys().length)), moved, { type: options.type, ...(options.set ? { set: options.set } : {}) })];
};

const KEY_ATTRIBUTES = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk']);

/**
 * The items of `keys` as DynamoDB sent them (numbers as their exact text: packed counters need every digit), read in
 * BatchGetItem calls of 100 keys side by side, asking again for what is left unprocessed. Missing items are absent.
 */
export const readRaw = async (keys: ItemKey[], options: { attributes?: string[]; consistent?: boolean } = {}): Promise<Record<string, AttributeValue>[]> => {
  const chunks: ItemKey[][] = [];
  for (let i = 0; i < keys.length; i += 100) chunks.push(keys.slice(i, i + 100));
  const table = tableName();
  // The keys always come back with a projection: the answer is matched to its counter by them.
  const names = options.attributes ? ['pk', 'sk', ...options.attributes] : undefined;
  const projection = names ? { ProjectionExpression: names.map((_, i) => `#p${i}`).join(', '), ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#p${i}`, name])) } : {};
  const read = async (chunk: ItemKey[]): Promise<Record<string, AttributeValue>[]> => {
    const found: Record<string, AttributeValue>[] = [];
    let pending: Record<string, AttributeValue>[] = chunk.map(({ pk, sk }) => ({ pk: { S: pk }, sk: { S: sk } }));
    for (let attempt = 1; pending.length > 0; attempt++) {
      const { Responses, UnprocessedKeys } = await documentClient().send(
        new BatchGetItemCommand({ RequestItems: { [table]: { Keys: pending, ...projection, ...(options.consistent ? { ConsistentRead: true } : {}) } } }),
      );
      found.push(...(Responses?.[table] ?? []));
      pending = UnprocessedKeys?.[table]?.Keys ?? [];
      if (pending.length > 0) {
        if (attempt >= 8) throw new Error(`BatchGetItem left ${pending.length} counter keys unread after ${attempt} attempts`);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(500, 10 * 2 ** attempt)));
      }
    }
    return found;
  };
  return (await Promise.all(chunks.map(read))).flat();
};

/** The sum of each plain number attribute over `items` (the key attributes and non-numbers left out). */
export const sumNumbers = (items: Record<string, AttributeValue>[]): Record<string, number> => {
  const sums: Record<string, number> = {};
  for (const item of items) {
    for (const [name, value] of Object.entries(item)) {
      if (KEY_ATTRIBUTES.has(name) || value.N === undefined) continue;
      sums[name] = (sums[name] ?? 0) + Number(value.N);
    }
  }
  return sums;
};

/** The summed figures of each counter (same order), all read together. */
export const readCounters = async (counters: ShardedCounter[], options: { attributes?: string[]; consistent?: boolean } = {}): Promise<Record<string, number>[]> => {
  const keys = counters.flatMap((counter) => counter.readKeys());
  const items = await readRaw(keys, options);
  const byKey = new Map<string, Record<string, AttributeValue>[]>();
  for (const item of items) {
    const id = `${item['pk']?.S}\u0000${item['sk']?.S}`;
    byKey.set(id, [...(byKey.get(id) ?? []), item]);
  }
  return counters.map((counter) => sumNumbers(counter.readKeys().flatMap(({ pk, sk }) => byKey.get(`${pk}\u0000${sk}`) ?? [])));
};

/** One counter's summed figures. */
export const readCounter = async (counter: ShardedCounter, options: { attributes?: string[]; consistent?: boolean } = {}): Promise<Record<string, number>> =>
  (await readCounters([counter], options))[0] ?? {};

/**
 * A migration step (bin/backfill.ts), never on a request path: the counter figures a table from before the shards holds
 * on `from` (every number attribute, or only `attributes`) are ADDed to the shard `to` (shard 0), and leave `from` in
 * the same transaction: the whole item is deleted (`remove: 'item'`) or only those attributes are removed (an item that
 * keeps other data, like a course or an affiliate). The transaction holds only while `from` still has the values read,
 * so a second run, or two runs at once, moves each figure once. Whether it moved anything.
 */
export const moveToShard = async (
  from: ItemKey,
  to: ItemKey,
  options: { remove: 'item' | 'attributes'; attributes?: string[]; type: string; keep?: string[]; rename?: Record<string, string> },
): Promise<boolean> => {
  const { Item } = await documentClient().send(new GetItemCommand({ TableName: tableName(), Key: { pk: { S: from.pk }, sk: { S: from.sk } }, ConsistentRead: true }));
  if (!Item) return false;
  const moved = Object.entries(Item).filter(
    ([name, value]) => value.N !== undefined && !KEY_ATTRIBUTES.has(name) && (options.attributes ? options.attributes.includes(name) : !(options.keep ?? []).includes(name)),
  );
  if (moved.length === 0) return false;
  const kept = Object.fromEntries(Object.entries(Item).filter(([name, value]) => value.S !== undefined && (options.keep ?? []).includes(name)).map(([name, value]) => [name, value.S]));
  const names = Object.fromEntries(moved.map(([name], i) => [`#m${i}`, name]));
  const values = Object.fromEntries(moved.map(([, value], i) => [`:m${i}`, NumberValue.from(value.N!)]));
  const unchanged = moved.map((_, i) => `#m${i} = :m${i}`).join(' AND ');
  const cancelled = await transact([
    addUpdate(to, Object.fromEntries(moved.map(([name, value]) => [options.rename?.[name] ?? name, NumberValue.from(value.N!)])), { type: options.type, ...(Object.keys(kept).length > 0 ? { set: kept } : {}) }),
    options.remove === 'item'
      ? { Delete: { TableName: tableName(), Key: from, ConditionExpression: unchanged, ExpressionAttributeNames: names, ExpressionAttributeValues: values } }
      : {
          Update: {
            TableName: tableName(),
            Key: from,
            UpdateExpression: `REMOVE ${Object.keys(names).join(', ')}`,
            ConditionExpression: unchanged,
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
          },
        },
  ]);
  return !cancelled;
};
