import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { documentClient } from '#data/table.ts';
import type { LocalCloud } from '#lib/local/cloud.ts';
import { startUnthrottledGateway } from './api-latency.ts';
import { formatTable, section, type Row } from './table.ts';

/** TransactWriteItems' limit: DynamoDB Local commits a transaction's puts together (see `writeAll`). */
const BATCH = 100;
const SEED_PARALLEL = 2;

export const count = (n: number): string => n.toLocaleString('en-GB');

/** How `writeAll` writes, for the seeding rows of the benches that use it. */
export const seedingHow = `transactions of ${BATCH}, ${SEED_PARALLEL} in flight`;

/**
 * Writes the items straight into the table in transactions of BATCH puts, SEED_PARALLEL in flight. Not BatchWriteItem:
 * DynamoDB Local (SQLite on disk) commits each put of a batch on its own, ~18 ms apiece on this 2-core machine (11,011
 * items took 197 s at 8 batches of 25 in flight), while a transaction's puts go to disk together (4-5x faster). More in
 * flight does not help: SQLite has one writer. The items must be new: no condition is checked. `onProgress` hears the
 * count written every 10,000 items.
 */
export const writeAll = async (cloud: LocalCloud, items: readonly Record<string, unknown>[], onProgress?: (written: number) => void): Promise<void> => {
  const { outputs } = cloud;
  const client = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      region: outputs.Region,
      endpoint: outputs.DynamoDbEndpoint,
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      requestHandler: new NodeHttpHandler({ httpAgent: new Agent({ keepAlive: true, maxSockets: SEED_PARALLEL }) }),
    }),
    { marshallOptions: { removeUndefinedValues: true } },
  );
  const batches: Record<string, unknown>[][] = [];
  for (let i = 0; i < items.length; i += BATCH) batches.push(items.slice(i, i + BATCH));
  let next = 0;
  let written = 0;
  const lane = async () => {
    while (next < batches.length) {
      const batch = batches[next++]!;
      await client.send(new TransactWriteCommand({ TransactItems: batch.map((Item) => ({ Put: { TableName: outputs.TableName, Item } })) }));
      const before = written;
      written += batch.length;
      if (Math.floor(written / 10_000) > Math.floor(before / 10_000)) onProgress?.(written);
    }
  };
  try {
    await Promise.all(Array.from({ length: SEED_PARALLEL }, lane));
  } finally {
    client.destroy();
  }
};

/** A GET with the bearer token that must answer 200 (its body read and dropped). */
export const fetchOk = async (url: string, token: string): Promise<void> => {
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await res.text();
  if (res.status !== 200) throw new Error(`GET ${new URL(url).pathname} answered ${res.status}`);
};

/**
 * The read capacity one request consumes, observed on the handlers' own DynamoDB client (handlers run in this process):
 * each DynamoDB call asks for ReturnConsumedCapacity for the length of `request`, nothing else in flight. Undefined
 * when DynamoDB Local reports none.
 */
export const consumedCapacity = async (request: () => Promise<void>): Promise<{ units: number; calls: number } | undefined> => {
  const stack = documentClient().middlewareStack;
  const name = 'benchConsumedCapacity';
  let units: number | undefined;
  let calls = 0;
  stack.add(
    (next) => async (args) => {
      (args.input as Record<string, unknown>)['ReturnConsumedCapacity'] = 'TOTAL';
      const result = await next(args);
      calls += 1;
      const consumed = (result.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] }).ConsumedCapacity;
      for (const c of [consumed ?? []].flat()) if (c.CapacityUnits !== undefined) units = (units ?? 0) + c.CapacityUnits;
      return result;
    },
    { step: 'initialize', name, override: true },
  );
  try {
    await request();
  } finally {
    stack.remove(name);
  }
  return units === undefined ? undefined : { units, calls };
};

/**
 * Runs one part of the bench alone (`node --import tsx test/bench/<part>.ts`): a local cloud and an unthrottled gateway
 * of its own, the part's rows as a table, and everything stopped on the way out, Ctrl-C included.
 */
export const runPartAlone = async (
  name: string,
  title: string,
  part: (cloud: LocalCloud, gatewayUrl: string, log: (line: string) => void) => Promise<Row[]>,
): Promise<void> => {
  const { startLocalCloud } = await import('#lib/local/cloud.ts');
  const progress = (line: string): void => void process.stderr.write(`[${name}] ${line}\n`);
  process.env.LOG_LEVEL ??= 'warn';
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  const workDir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  let cloud: Promise<LocalCloud> | undefined;
  let stopGateway: (() => Promise<void>) | undefined;
  const stop = async () => {
    await stopGateway?.().catch(() => undefined);
    stopGateway = undefined;
    const starting = cloud;
    cloud = undefined;
    await starting?.then((c) => c.stop()).catch(() => undefined);
    rmSync(workDir, { recursive: true, force: true });
  };
  process.on('SIGINT', () => void stop().finally(() => process.exit(130)));
  process.on('SIGTERM', () => void stop().finally(() => process.exit(143)));
  try {
    progress('starting the local cloud');
    cloud = startLocalCloud({ dataDir: join(workDir, 'local'), ports: 'auto', web: false, seed: true, log: () => undefined });
    const local = await cloud;
    const gateway = await startUnthrottledGateway(local);
    stopGateway = gateway.stop;
    const rows = [section(title), ...(await part(local, gateway.url, progress))];
    process.stdout.write(`\n${formatTable(rows)}\n`);
  } finally {
    process.env.LOG_LEVEL = 'silent';
    await stop();
  }
};
