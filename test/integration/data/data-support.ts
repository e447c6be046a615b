import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo, outputs } from '../support.ts';

/**
 * The data adapters are called straight from these tests (not through the gateway), so their lines count for
 * coverage. Every test writes under its own ids: the table is shared with the rest of the integration suite.
 */
let n = 0;
export const unique = (tag: string) => `data-${tag}-${Date.now()}-${++n}`;

/** The raw item, as stored (keys, index fields, type). */
export const rawItem = async (key: { pk: string; sk: string }) =>
  (await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: key, ConsistentRead: true }))).Item;

/** An item written as it is, bypassing the adapters: legacy or malformed data. */
export const putRaw = (item: Record<string, unknown>) => dynamo().send(new PutCommand({ TableName: outputs().TableName, Item: item }));

/** Drops a table a test made for itself (`ensureTable` of the local cloud). */
export const deleteTable = (table: string) => dynamo().send(new DeleteTableCommand({ TableName: table }));
