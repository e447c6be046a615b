import { type AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { BatchGetCommand, BatchWriteCommand, DeleteCommand, DynamoDBDocumentClient, type NumberValue, QueryCommand, type QueryCommandInput, ScanCommand, TransactWriteCommand, type TransactWriteCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { awsClientOptions, clientPolicies, dynamodbPolicyOf } from '#adapters/client-policy.ts';
import { traced } from '#adapters/tracer.ts';
import * as z from 'zod';
import { ValidationError } from '#core/errors.ts';
import { config, required } from '#functions/config.ts';

/**
 * One document client per process (module scope, created on first use), with DynamoDB's timeouts and retries for the
 * function's profile (adapters/client-policy.ts: a heavy function's client makes more attempts).
 */
let client: DynamoDBDocumentClient | undefined;

export const documentClient = (): DynamoDBDocumentClient => {
  if (!client) {
    const { AWS_REGION, DYNAMODB_ENDPOINT, FUNCTION_PROFILE } = config();
    const policy = clientPolicies[dynamodbPolicyOf(FUNCTION_PROFILE)];
    client = DynamoDBDocumentClient.from(
      traced(new DynamoDBClient({ region: AWS_REGION, ...awsClientOptions(policy), ...(DYNAMODB_ENDPOINT ? { endpoint: DYNAMODB_ENDPOINT } : {}) })),
      { marshallOptions: { removeUndefinedValues: true } },
    );
  }
  return client;
};

export const tableName = (): string => required('TABLE_NAME');

/** Tests point the functions at another table between runs. */
export const resetDocumentClient = (): void => {
  client = undefined;
};

const BATCH_ATTEMPTS = 8;

/**
 * The one way to read items by key in bulk: one BatchGetItem (at most 100 keys: a page's worth), asking again for the
 * keys DynamoDB leaves unprocessed under load, with jittered backoff, so no item is silently missing. Missing items
 * are simply not in the answer, which comes in no particular order.
 */
export const batchGet = async (keys: Record<string, string>[], options: { projection?: string } = {}): Promise<Record<string, unknown>[]> => {
  if (keys.length > 100) throw new Error(`BatchGetItem takes at most 100 keys, not ${keys.length}`);
  const found: Record<string, unknown>[] = [];
  let pending = keys;
  for (let attempt = 1; pending.length > 0; attempt++) {
    const { Responses, UnprocessedKeys } = await documentClient().send(
      new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ...(options.projection ? { ProjectionExpression: options.projection } : {}) } } }),
    );
    found.push(...(Responses?.[tableName()] ?? []));
    pending = (UnprocessedKeys?.[tableName()]?.Keys ?? []) as Record<string, string>[];
    if (pending.length > 0) {
      if (attempt >= BATCH_ATTEMPTS) throw new Error(`BatchGetItem left ${pending.length} keys unread after ${attempt} attempts`);
      await sleep(Math.random() * Math.min(500, 10 * 2 ** attempt));
    }
  }
  return found;
};

type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: Record<string, unknown> } };

/**
 * The one way to write items in bulk (puts and deletes, unconditional): BatchWriteItem 25 at a time, sending again what
 * DynamoDB leaves unprocessed under load, with jittered backoff; throws rather than leave a request undone.
 */
export const batchWrite = async (requests: readonly WriteRequest[]): Promise<void> => {
  for (let i = 0; i < requests.length; i += 25) {
    let pending = requests.slice(i, i + 25);
    for (let attempt = 1; pending.length > 0; attempt++) {
      const { UnprocessedItems } = await documentClient().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending as WriteRequest[] } }));
      pending = (UnprocessedItems?.[tableName()] ?? []) as WriteRequest[];
      if (pending.length > 0) {
        if (attempt >= BATCH_ATTEMPTS) throw new Error(`BatchWriteItem left ${pending.length} requests undone after ${attempt} attempts`);
        await sleep(Math.random() * Math.min(500, 10 * 2 ** attempt));
      }
    }
  }
};

/** Why a transaction was cancelled: per item, in order, its code ('None', 'ConditionalCheckFailed', ...) and, for a failed condition of an item that asked for it (ReturnValuesOnConditionCheckFailure), the item as it stood. */
export interface Cancellation {
  codes: string[];
  items: (Record<string, unknown> | undefined)[];
}

export const cancellationOf = (error: unknown): Cancellation | undefined => {
  if ((error as { name?: string })?.name !== 'TransactionCanceledException') return undefined;
  const reasons = (error as { CancellationReasons?: { Code?: string; Item?: Record<string, AttributeValue> }[] }).CancellationReasons ?? [];
  // The document client does not translate cancellation reasons: their items arrive as raw attribute values.
  return { codes: reasons.map((r) => r.Code ?? 'None'), items: reasons.map((r) => (r.Item ? unmarshall(r.Item) : undefined)) };
};

const CONFLICT_ATTEMPTS = 25;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The one way to write a transaction: TransactWriteItems that retries while it only collided with another
 * transaction on the same items (TransactionConflict, which the SDK does not retry), with jittered backoff. A failed
 * condition is an answer, not an error: it is returned (per-item codes, and the items that asked for their values)
 * for the caller to read. Any other cancellation throws. Success returns undefined.
 */
export const transact = async (items: NonNullable<TransactWriteCommandInput['TransactItems']>): Promise<Cancellation | undefined> => {
  for (let attempt = 1; ; attempt++) {
    try {
      await documentClient().send(new TransactWriteCommand({ TransactItems: items }));
      return undefined;
    } catch (error) {
      const cancelled = cancellationOf(error);
      if (!cancelled) throw error;
      if (cancelled.codes.includes('ConditionalCheckFailed')) return cancelled;
      if (!cancelled.codes.includes('TransactionConflict') || attempt >= CONFLICT_ATTEMPTS) throw error;
      await sleep(Math.random() * Math.min(200, 5 * 2 ** attempt));
    }
  }
};

/** A failed condition on item `index` of a cancelled transaction. */
export const failedAt = (cancelled: Cancellation, index: number): boolean => cancelled.codes[index] === 'ConditionalCheckFailed';

/**
 * The one way to write a single item under a condition: true when the write happened, false when its condition did
 * not hold (ConditionalCheckFailedException is an answer, not an error). Anything else throws.
 */
export const writeIf = async (write: () => Promise<unknown>): Promise<boolean> => {
  try {
    await write();
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
};

/**
 * A queue kept in one partition, oldest first (its sort keys are `<time>#<id>`): the first `limit` items, each
 * checked by `parse`, and `take`, a delete that is true for the one caller whose delete found the item.
 */
export const partitionQueue = <T>(pk: string, parse: (item: Record<string, unknown>) => T) => ({
  /** The first `limit`; only those whose sort key starts no later than `upTo` (a time) when it is given. */
  oldest: async (limit: number, upTo?: string): Promise<T[]> => {
    const bounded = upTo === undefined ? {} : { ':upTo': `${upTo}#~` };
    const { Items = [] } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: upTo === undefined ? 'pk = :pk' : 'pk = :pk AND sk <= :upTo',
        ExpressionAttributeValues: { ':pk': pk, ...bounded },
        Limit: limit,
        ConsistentRead: true,
      }),
    );
    return Items.map(parse);
  },
  take: (key: { pk: string; sk: string }): Promise<boolean> =>
    writeIf(() => documentClient().send(new DeleteCommand({ TableName: tableName(), Key: key, ConditionExpression: 'attribute_exists(pk)' }))),
});

const badCursor = () => new ValidationError('The cursor is not valid. Start again from the first page.');

/**
 * A page cursor: the DynamoDB key a Query stopped at, as opaque base64url JSON. A cursor sent back must be one this listing handed out: a key of strings whose partition is the listing's own,
 * else it is a 400 (never a Query from a key the caller made up).
 */
export const decodeCursor = (cursor: string, expected: Record<string, string>, sortPrefix: { name: string; prefix: string }): Record<string, string> => {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  const parsed = z.record(z.string(), z.string()).safeParse(key);
  if (!parsed.success) throw badCursor();
  const fields = parsed.data;
  const ownPartition = Object.entries(expected).every(([name, value]) => fields[name] === value);
  if (!ownPartition || !fields[sortPrefix.name]?.startsWith(sortPrefix.prefix)) throw badCursor();
  return fields;
};

export const encodeCursor = (key: Record<string, unknown> | undefined): string | undefined =>
  key ? Buffer.from(JSON.stringify(key)).toString('base64url') : undefined;

/**
 * One page of an index partition, newest first (its sort key descending; `oldestFirst` ascending: the support inbox),
 * from where a cursor of this listing stopped: the admin's users and courses, a creator's sales. `cursorKey` is what
 * decodeCursor checks a cursor against.
 */
export const indexPage = async (input: {
  index: 'gsi1' | 'gsi2' | 'gsi3';
  partition: string;
  cursor: string | undefined;
  limit: number;
  cursorKey: { fixed?: Record<string, string>; sortPrefix: { name: string; prefix: string } };
  oldestFirst?: boolean;
}): Promise<{ items: Record<string, unknown>[]; nextCursor: string | null }> => {
  const pk = `${input.index}pk`;
  const { Items = [], LastEvaluatedKey } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: input.index,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': pk },
      ExpressionAttributeValues: { ':pk': input.partition },
      ScanIndexForward: input.oldestFirst === true,
      Limit: input.limit,
      ...(input.cursor
        ? { ExclusiveStartKey: decodeCursor(input.cursor, { [pk]: input.partition, ...input.cursorKey.fixed }, input.cursorKey.sortPrefix) }
        : {}),
    }),
  );
  return { items: Items, nextCursor: encodeCursor(LastEvaluatedKey) ?? null };
};

/** Every item of one Query of the table, page after page (at most `limit`). */
/**
 * Every item of a `type`, a page of the Scan at a time, each handed to `each` in turn: for the one-off migrations
 * (bin/backfill.ts, the local seed) only, never a request (DATA.md: no Scan in a request path). `filter` is ANDed with
 * the type (its values in `values`), `projection` names what to read.
 */
export const forEachOfType = async (
  type: string,
  each: (item: Record<string, unknown>) => Promise<void> | void,
  options: { filter?: string; values?: Record<string, unknown>; projection?: string } = {},
): Promise<void> => {
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: options.filter ? `#type = :type AND (${options.filter})` : '#type = :type',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':type': type, ...options.values },
        ...(options.projection ? { ProjectionExpression: options.projection } : {}),
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) await each(item);
    start = page.LastEvaluatedKey;
  } while (start);
};

/**
 * A migration's index backfill (bin/backfill.ts): every item of `type` without the index's keys gets those `keysOf`
 * gives it (undefined: left alone, a partial item with nothing to list it by), each by an update conditional on the
 * item still being there without them. Idempotent: a second run finds none left. Returns how many it indexed.
 */
export const backfillIndexKeys = async (input: {
  type: string;
  index: 'gsi1' | 'gsi2';
  projection: string;
  keysOf: (item: Record<string, unknown>) => { key: Record<string, string>; pk: string; sk: string } | undefined;
}): Promise<number> => {
  let indexed = 0;
  await forEachOfType(
    input.type,
    async (item) => {
      const keys = input.keysOf(item);
      if (!keys) return;
      const done = await writeIf(() =>
        documentClient().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: keys.key,
            UpdateExpression: `SET ${input.index}pk = :pk, ${input.index}sk = :sk`,
            ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(${input.index}pk)`,
            ExpressionAttributeValues: { ':pk': keys.pk, ':sk': keys.sk },
          }),
        ),
      );
      if (done) indexed++;
    },
    { filter: `attribute_not_exists(${input.index}pk)`, projection: input.projection },
  );
  return indexed;
};

export const queryAll = async (input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>, limit = Infinity): Promise<Record<string, unknown>[]> => {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(new QueryCommand({ TableName: tableName(), ...input, ExclusiveStartKey: start }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start && items.length < limit);
  return items.slice(0, limit);
};

/**
 * The transaction item that ADDs each of `adds` to an item's number of that name (every name through a placeholder:
 * counter names are data, not syntax), SETting `type` and `set` beside it, under `condition` when given. The one way
 * the counters, week figures, sales figures and affiliate figures move.
 */
export const addUpdate = (
  key: Record<string, string>,
  adds: Record<string, number | NumberValue>,
  options: { type?: string; set?: Record<string, unknown>; condition?: string } = {},
) => {
  const names = Object.keys(adds);
  const sets = Object.entries({ ...(options.type ? { type: options.type } : {}), ...options.set });
  return {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: `ADD ${names.map((_, i) => `#a${i} :a${i}`).join(', ')}${sets.length > 0 ? ` SET ${sets.map((_, i) => `#s${i} = :s${i}`).join(', ')}` : ''}`,
      ...(options.condition ? { ConditionExpression: options.condition } : {}),
      ExpressionAttributeNames: { ...Object.fromEntries(names.map((name, i) => [`#a${i}`, name])), ...Object.fromEntries(sets.map(([name], i) => [`#s${i}`, name])) },
      ExpressionAttributeValues: { ...Object.fromEntries(names.map((name, i) => [`:a${i}`, adds[name]])), ...Object.fromEntries(sets.map(([, value], i) => [`:s${i}`, value])) },
    },
  };
};

/** Only the deltas that move something (a zero is no write). */
export const nonZero = (deltas: Record<string, number>): Record<string, number> => Object.fromEntries(Object.entries(deltas).filter(([, n]) => n !== 0));

/**
 * One page of a sparse due index on gsi3 (`gsi3pk` the index's name, `gsi3sk` `<dueAt>#...`): the items due by `now`,
 * earliest first, after the cursor of the page before (its items' `pk` starts with `pkPrefix`). The live sessions',
 * the webhook deliveries' and the domains' checks each keep one.
 */
export const dueIndexPage = async (index: string, now: string, limit: number, after?: { cursor: string; pkPrefix: string }): Promise<{ items: Record<string, unknown>[]; nextCursor: string | null }> => {
  const { Items = [], LastEvaluatedKey } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi3',
      KeyConditionExpression: 'gsi3pk = :due AND gsi3sk <= :now',
      ExpressionAttributeValues: { ':due': index, ':now': `${now}#~` },
      Limit: limit,
      ...(after ? { ExclusiveStartKey: decodeCursor(after.cursor, { gsi3pk: index }, { name: 'pk', prefix: after.pkPrefix }) } : {}),
    }),
  );
  return { items: Items, nextCursor: encodeCursor(LastEvaluatedKey) ?? null };
};
