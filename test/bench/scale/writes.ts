import { Agent } from 'node:http';
import { type AttributeValue, DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { marshall } from '@aws-sdk/util-dynamodb';
import { documentClient } from '#data/table.ts';
import type { Outputs } from '#lib/local/outputs.ts';

/** BatchWriteItem's limit. */
const BATCH = 25;

/**
 * Writes the items straight into the table with BatchWriteItem, `parallel` batches in flight, each batch's unprocessed
 * items sent again. The items must be new or meant to replace what is there (no condition). Duplicate keys in one
 * batch are refused by DynamoDB: the last item of a key wins. `onProgress` hears the count every 20,000.
 */
export const batchWriteAll = async (
  outputs: Pick<Outputs, 'Region' | 'DynamoDbEndpoint' | 'TableName'>,
  items: readonly Record<string, unknown>[],
  opts: { parallel?: number; onProgress?: (written: number) => void } = {},
): Promise<void> => {
  const parallel = opts.parallel ?? 8;
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: outputs.Region,
      endpoint: outputs.DynamoDbEndpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      maxAttempts: 10,
      requestHandler: new NodeHttpHandler({ httpAgent: new Agent({ keepAlive: true, maxSockets: parallel }) }),
    }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  const unique = new Map<string, Record<string, unknown>>();
  for (const item of items) unique.set(`${String(item['pk'])}\u0000${String(item['sk'])}`, item);
  const all = [...unique.values()];
  let next = 0;
  let written = 0;
  const lane = async () => {
    while (next < all.length) {
      const start = next;
      next += BATCH;
      let pending = all.slice(start, start + BATCH).map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 1; pending.length > 0; attempt++) {
        if (attempt > 20) throw new Error(`BatchWriteItem left ${pending.length} items unprocessed 20 times`);
        const { UnprocessedItems } = await client.send(new BatchWriteCommand({ RequestItems: { [outputs.TableName]: pending } }));
        pending = (UnprocessedItems?.[outputs.TableName] ?? []) as typeof pending;
        if (pending.length > 0) await new Promise((r) => setTimeout(r, 20 * attempt));
      }
      const before = written;
      written += Math.min(BATCH, all.length - start);
      if (Math.floor(written / 20_000) > Math.floor(before / 20_000)) opts.onProgress?.(written);
    }
  };
  try {
    await Promise.all(Array.from({ length: parallel }, lane));
  } finally {
    client.destroy();
  }
};

/** One write the functions' client sent: the items it wrote (pk/sk) and the capacity DynamoDB reported for it. */
export interface RecordedWrite {
  keys: string[];
  units: number | undefined;
  /** What `billedUnits` needs: a transaction or not, and each written item's whole new value where the call sent it (a Put). */
  transactional?: boolean;
  puts?: Record<string, Record<string, unknown>>;
}

/** The write commands, by the document client's name or the low-level client's (what the stack's context names). */
const WRITES: Record<string, WriteKind> = {
  PutCommand: 'put',
  PutItemCommand: 'put',
  UpdateCommand: 'update',
  UpdateItemCommand: 'update',
  DeleteCommand: 'delete',
  DeleteItemCommand: 'delete',
  TransactWriteCommand: 'transact',
  TransactWriteItemsCommand: 'transact',
  BatchWriteCommand: 'batch',
  BatchWriteItemCommand: 'batch',
};

export type WriteKind = 'put' | 'update' | 'delete' | 'transact' | 'batch';

const keyOf = (key: Record<string, unknown> | undefined): string | undefined => (key ? `${String(key['pk'])} / ${String(key['sk'])}` : undefined);

/** The items one write command touches, from its (document client) input. */
export const writtenKeys = (command: WriteKind, input: Record<string, unknown>): string[] => {
  const keys: (string | undefined)[] = [];
  if (command === 'put') keys.push(keyOf(input['Item'] as Record<string, unknown>));
  if (command === 'update' || command === 'delete') keys.push(keyOf(input['Key'] as Record<string, unknown>));
  if (command === 'transact') {
    for (const t of (input['TransactItems'] ?? []) as Record<string, { Item?: Record<string, unknown>; Key?: Record<string, unknown> } | undefined>[]) {
      // A ConditionCheck writes nothing.
      const write = t['Put'] ?? t['Update'] ?? t['Delete'];
      if (write) keys.push(keyOf(write.Item ?? write.Key));
    }
  }
  if (command === 'batch') {
    for (const requests of Object.values((input['RequestItems'] ?? {}) as Record<string, { PutRequest?: { Item: Record<string, unknown> }; DeleteRequest?: { Key: Record<string, unknown> } }[]>)) {
      for (const r of requests) keys.push(keyOf(r.PutRequest?.Item ?? r.DeleteRequest?.Key));
    }
  }
  return keys.filter((k): k is string => k !== undefined);
};

/** The whole items a write sends (its Puts), by key: copied, as the call's input may be reused. */
const putItems = (command: WriteKind, input: Record<string, unknown>): Record<string, Record<string, unknown>> => {
  const items: Record<string, unknown>[] = [];
  if (command === 'put') items.push(input['Item'] as Record<string, unknown>);
  if (command === 'transact') for (const t of (input['TransactItems'] ?? []) as { Put?: { Item: Record<string, unknown> } }[]) if (t.Put) items.push(t.Put.Item);
  if (command === 'batch') for (const requests of Object.values((input['RequestItems'] ?? {}) as Record<string, { PutRequest?: { Item: Record<string, unknown> } }[]>)) for (const r of requests) if (r.PutRequest) items.push(r.PutRequest.Item);
  return Object.fromEntries(items.map((item) => [keyOf(item)!, marshall(item, { removeUndefinedValues: true, convertClassInstanceToMap: true }) as Record<string, unknown>]));
};

const unitsOf = (consumed: unknown): number | undefined => {
  let units: number | undefined;
  for (const c of [consumed ?? []].flat() as { CapacityUnits?: number }[]) if (c.CapacityUnits !== undefined) units = (units ?? 0) + c.CapacityUnits;
  return units;
};

/**
 * Records every write the functions' DynamoDB client sends in this process (handlers run in it) until `stop()`: its
 * keys, and the write capacity DynamoDB reports (ReturnConsumedCapacity INDEXES set on each: the table's and each
 * index's units). A write that failed (a cancelled transaction, a failed condition) is recorded without units.
 */
export const recordWrites = (): { writes: RecordedWrite[]; stop: () => void } => {
  const stack = documentClient().middlewareStack;
  const name = 'benchRecordWrites';
  const writes: RecordedWrite[] = [];
  stack.add(
    (next, context) => async (args) => {
      const command = WRITES[String((context as { commandName?: string }).commandName ?? '')];
      if (!command) return next(args);
      const input = args.input as Record<string, unknown>;
      input['ReturnConsumedCapacity'] = 'INDEXES';
      const keys = writtenKeys(command, input);
      const puts = putItems(command, input);
      try {
        const result = await next(args);
        writes.push({ keys, units: unitsOf((result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity), transactional: command === 'transact', puts });
        return result;
      } catch (error) {
        writes.push({ keys: [], units: undefined });
        throw error;
      }
    },
    { step: 'initialize', name, priority: 'high', override: true },
  );
  return { writes, stop: () => stack.remove(name) };
};

export interface WriteSummary {
  writeCalls: number;
  /** Summed over the writes that reported capacity; undefined when none did. */
  units: number | undefined;
  itemWrites: number;
  /** The most-written items, most first: each item's count of successful writes. */
  hottest: { key: string; writes: number }[];
}

/** What the recorded writes add up to: capacity, item writes, and the items written most. */
export const summarizeWrites = (writes: readonly RecordedWrite[], top = 5): WriteSummary => {
  const perItem = new Map<string, number>();
  let units: number | undefined;
  let itemWrites = 0;
  for (const w of writes) {
    if (w.units !== undefined) units = (units ?? 0) + w.units;
    for (const key of w.keys) {
      itemWrites++;
      perItem.set(key, (perItem.get(key) ?? 0) + 1);
    }
  }
  const hottest = [...perItem.entries()]
    .map(([key, n]) => ({ key, writes: n }))
    .sort((a, b) => b.writes - a.writes || a.key.localeCompare(b.key))
    .slice(0, top);
  return { writeCalls: writes.length, units, itemWrites, hottest };
};

/** An item's family: its partition key's and sort key's first words (`ORDER / ORDER`, `SALES / MONTH`, `MAILQUEUE / …`). */
const familyOf = (key: string): string => {
  const [pk = '', sk = ''] = key.split(' / ');
  const word = (s: string) => s.split('#')[0]!.replace(/[^A-Z_].*$/, '') || '…';
  return `${word(pk)} / ${word(sk)}`;
};

/**
 * The recorded writes by what they wrote (the families of a call's items, e.g. a paid order's transaction): calls,
 * item writes, the units they reported and the units DynamoDB would bill (billedUnits), most units first. Where a flash sale's write units go.
 */
export const writesByShape = (
  writes: readonly RecordedWrite[],
  sizes: ReadonlyMap<string, { bytes: number; indexes: number }> = new Map(),
): { shape: string; calls: number; items: number; units: number; billed: number }[] => {
  const shapes = new Map<string, { calls: number; items: number; units: number; billed: number }>();
  const billed = billEach(writes, sizes);
  for (const [i, w] of writes.entries()) {
    if (w.keys.length === 0) continue;
    // A family written more than once in one call (the stream aggregator's batch: many counter shards) is named once, xN.
    const families = w.keys.map(familyOf);
    const named = [...new Set(families)].map((f) => {
      const n = families.filter((g) => g === f).length;
      return n > 1 ? `${f} x${n > 3 ? 'N' : n}` : f;
    });
    const shape = w.keys.length === 1 ? families[0]! : `[${named.join(', ')}]`;
    const s = shapes.get(shape) ?? { calls: 0, items: 0, units: 0, billed: 0 };
    s.calls++;
    s.items += w.keys.length;
    s.units += w.units ?? 0;
    s.billed += billed[i]!;
    shapes.set(shape, s);
  }
  return [...shapes.entries()].map(([shape, s]) => ({ shape, ...s })).sort((a, b) => b.units - a.units || a.shape.localeCompare(b.shape));
};

/** An attribute value's size as DynamoDB counts it (its docs, "Item sizes"): strings in UTF-8 bytes, numbers ~1 byte per 2 digits. */
const valueSize = (value: AttributeValue): number => {
  if (value.S !== undefined) return Buffer.byteLength(value.S);
  if (value.N !== undefined) return Math.ceil(value.N.replace(/^-|\.|e.*$/gi, '').replace(/^0+/, '').length / 2) + 1;
  if (value.B !== undefined) return value.B.length;
  if (value.SS) return value.SS.reduce((n, v) => n + Buffer.byteLength(v), 0);
  if (value.NS) return value.NS.reduce((n, v) => n + Math.ceil(v.length / 2) + 1, 0);
  if (value.L) return 3 + value.L.reduce((n, v) => n + 1 + valueSize(v), 0);
  if (value.M) return 3 + Object.entries(value.M).reduce((n, [k, v]) => n + 1 + Buffer.byteLength(k) + valueSize(v), 0);
  return 1; // BOOL, NULL
};

/** An item's size in bytes (attribute names and values), as DynamoDB bills it. */
export const itemSize = (item: Record<string, AttributeValue>): number => Object.entries(item).reduce((n, [name, v]) => n + Buffer.byteLength(name) + valueSize(v), 0);

/** The table's indexes an item is in: one per `gsi<N>pk` it holds. */
const indexesOf = (item: Record<string, AttributeValue>): number => Object.keys(item).filter((name) => /^gsi\d+pk$/.test(name)).length;

/**
 * The write units DynamoDB would bill for the recorded writes, where DynamoDB Local's ReturnConsumedCapacity does not
 * (it reports a transaction as 2 units per KB of all its items together, not per item): per item written, 1 unit per
 * KB of the item (rounded up), 2 in a transaction; and the same again for each index the item is in (a write that
 * changes an index's key is a delete and a put there: counted once, a floor). An item's size is its Put's, or, for an
 * Update or Delete, its size when read after the writes (`sizes`, e.g. from `readSizes`), or for an item gone by then its
 * size when last put (else 1 KB).
 * ConditionChecks are not counted.
 */
export const billedUnits = (writes: readonly RecordedWrite[], sizes: ReadonlyMap<string, { bytes: number; indexes: number }>): number =>
  billEach(writes, sizes).reduce((sum, units) => sum + units, 0);

/** billedUnits of each write, in order. */
const billEach = (writes: readonly RecordedWrite[], sizes: ReadonlyMap<string, { bytes: number; indexes: number }>): number[] => {
  // An item deleted by the end is billed at its size when last put (a queued email, held and removed).
  const lastPut = new Map<string, { bytes: number; indexes: number }>();
  return writes.map((w) => {
    if (w.units === undefined) return 0; // failed: DynamoDB bills a refused write too, but the sale has none
    const factor = w.transactional ? 2 : 1;
    let units = 0;
    for (const key of w.keys) {
      const put = w.puts?.[key] as Record<string, AttributeValue> | undefined;
      const size = put ? { bytes: itemSize(put), indexes: indexesOf(put) } : (sizes.get(key) ?? lastPut.get(key) ?? { bytes: 1024, indexes: 0 });
      if (put) lastPut.set(key, size);
      units += Math.max(1, Math.ceil(size.bytes / 1024)) * factor * (1 + size.indexes);
    }
    return units;
  });
};

/** Each written item's size and indexes as it is now (GetItem, 8 in flight); absent for an item that is gone. */
export const readSizes = async (outputs: Pick<Outputs, 'Region' | 'DynamoDbEndpoint' | 'TableName'>, keys: Iterable<string>): Promise<Map<string, { bytes: number; indexes: number }>> => {
  const client = new DynamoDBClient({ region: outputs.Region, endpoint: outputs.DynamoDbEndpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  const all = [...new Set(keys)];
  const sizes = new Map<string, { bytes: number; indexes: number }>();
  let next = 0;
  try {
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < all.length) {
          const key = all[next++]!;
          const [pk = '', sk = ''] = key.split(' / ');
          const { Item } = await client.send(new GetItemCommand({ TableName: outputs.TableName, Key: { pk: { S: pk }, sk: { S: sk } } }));
          if (Item) sizes.set(key, { bytes: itemSize(Item), indexes: indexesOf(Item) });
        }
      }),
    );
  } finally {
    client.destroy();
  }
  return sizes;
};
