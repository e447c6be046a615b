import { Agent } from 'node:http';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
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
      try {
        const result = await next(args);
        writes.push({ keys, units: unitsOf((result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity) });
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
