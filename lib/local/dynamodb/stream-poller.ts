import { setTimeout as sleep } from 'node:timers/promises';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecordOut,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import type { AggregatorAnswer, AggregatorEvent } from '#functions/streams/aggregator.ts';
import { type Handler, lambdaContext, lambdaError, loadHandler } from '../handlers.ts';

export interface StreamPollerOptions {
  /** DynamoDB Local's endpoint (its stream API is served there too). */
  readonly endpoint: string;
  readonly region: string;
  readonly tableName: string;
  /** The handler module (functions/<module>.ts) and its name, as in functions/routes.ts `eventHandlers`. */
  readonly handler: { readonly name: string; readonly handler: string };
  /** How often an idle shard is read again (default 100 ms). */
  readonly pollMs?: number;
  /**
   * Lambda's MaximumBatchingWindowInSeconds: after a shard's first records, it is read on until this passes or
   * `batchSize` records are in hand (default 150 ms locally, so a figure lands well within a second; the bench sets the
   * cloud's window).
   */
  readonly batchWindowMs?: number;
  /** Lambda's BatchSize (default 1000). */
  readonly batchSize?: number;
  /** Invocations of a failing batch before it is given up on and logged (Lambda's MaximumRetryAttempts; default 10). */
  readonly maxAttempts?: number;
  readonly log: (line: string) => void;
  /** How a handler module is loaded (tests hand their own). */
  readonly load?: (module: string) => Promise<Handler>;
}

export interface StreamPoller {
  /** Resolves when every record written before the call has been handed to the handler and answered. */
  caughtUp(timeoutMs?: number): Promise<void>;
  /** Batches handed over (tests). */
  readonly batches: () => number;
  /** Stops reading and waits for the batch in hand. */
  stop(): Promise<void>;
}

/** A record as Lambda's DynamoDB event source hands it over (the streams API's field names are the same, but dates). */
const lambdaRecord = (record: StreamRecordOut, streamArn: string, region: string): DynamoDBRecord =>
  ({
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: region,
    dynamodb: {
      ...record.dynamodb,
      ApproximateCreationDateTime: record.dynamodb?.ApproximateCreationDateTime ? Math.floor(record.dynamodb.ApproximateCreationDateTime.getTime() / 1000) : undefined,
    },
    eventSourceARN: streamArn,
  }) as DynamoDBRecord;

interface ShardState {
  readonly shard: Shard;
  iterator: string | undefined;
  /** Closed and read to its end. */
  done: boolean;
  /** The last sequence number handed over and answered. */
  last?: string;
}

/**
 * Lambda's DynamoDB Streams event source, against DynamoDB Local's stream (docs/decisions/0040-stream-aggregator.md):
 * DescribeStream for the shards (a child shard once its parent is read to its end), GetShardIterator from the trim
 * horizon (the aggregator's checkpoint skips what it applied before a restart), GetRecords in a loop; each batch of one
 * shard's records goes to the handler as Lambda builds the event with a tumbling window (`shardId`, `state`). A batch
 * item failure restarts the shard at that record (the records before it checkpointed, so the attempts are counted
 * afresh); a thrown or failed invocation is retried (the whole batch again, as Lambda does), and after `maxAttempts`
 * in a row at the same record the batch is logged and left behind, as Lambda's on-failure destination would have it.
 */
export const startStreamPoller = async (opts: StreamPollerOptions): Promise<StreamPoller> => {
  const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  const streams = new DynamoDBStreamsClient({ region: opts.region, endpoint: opts.endpoint, credentials, maxAttempts: 2 });
  const dynamo = new DynamoDBClient({ region: opts.region, endpoint: opts.endpoint, credentials });
  const { Table } = await dynamo.send(new DescribeTableCommand({ TableName: opts.tableName }));
  dynamo.destroy();
  const streamArn = Table?.LatestStreamArn;
  if (!streamArn) throw new Error(`table ${opts.tableName} has no stream (lib/local/dynamodb/dynamodb-local.ts ensureTable enables it)`);
  const load = opts.load ?? loadHandler;
  const pollMs = opts.pollMs ?? 100;
  const windowMs = opts.batchWindowMs ?? 150;
  const batchSize = opts.batchSize ?? 1000;
  const maxAttempts = opts.maxAttempts ?? 10;
  const shards = new Map<string, ShardState>();
  let stopping = false;
  let batches = 0;
  /** Rounds in which every shard was read and none had records: caughtUp waits for one that started after it. */
  let quietRounds = 0;
  let round = 0;
  /** The round that last read the stream's shards (DescribeStream); caughtUp asks for one at once (`discoverNow`). */
  let discoveredRound = 0;
  let discoverNow = false;

  const iteratorAt = async (shardId: string, after?: string, at?: string) =>
    (
      await streams.send(
        new GetShardIteratorCommand({
          StreamArn: streamArn,
          ShardId: shardId,
          ShardIteratorType: at ? 'AT_SEQUENCE_NUMBER' : after ? 'AFTER_SEQUENCE_NUMBER' : 'TRIM_HORIZON',
          ...(at ? { SequenceNumber: at } : after ? { SequenceNumber: after } : {}),
        }),
      )
    ).ShardIterator;

  const discover = async () => {
    const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    for (const shard of StreamDescription?.Shards ?? []) {
      if (!shard.ShardId || shards.has(shard.ShardId)) continue;
      shards.set(shard.ShardId, { shard, iterator: undefined, done: false });
    }
  };

  /** A shard is read once its parent (if known) is read to its end: an item's changes stay in order. */
  const readable = (state: ShardState) => {
    const parent = state.shard.ParentShardId ? shards.get(state.shard.ParentShardId) : undefined;
    return !state.done && (!parent || parent.done);
  };

  const invoke = async (shardId: string, records: StreamRecordOut[]): Promise<string | undefined> => {
    const event: AggregatorEvent & { eventSourceARN: string; window: { start: string; end: string }; isWindowTerminatedEarly: boolean } = {
      Records: records.map((r) => lambdaRecord(r, streamArn, opts.region)),
      shardId,
      eventSourceARN: streamArn,
      state: {},
      window: { start: new Date().toISOString(), end: new Date().toISOString() },
      isFinalInvokeForWindow: false,
      isWindowTerminatedEarly: false,
    };
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = (await (await load(opts.handler.handler))(event, lambdaContext(opts.handler.name, 60_000))) as Partial<AggregatorAnswer> | undefined;
        batches++;
        const failed = answer?.batchItemFailures?.[0]?.itemIdentifier;
        if (!failed) return undefined;
        opts.log(`[streams] ${opts.handler.name}: batch of shard ${shardId} failed from ${failed} (attempt ${attempt} of ${maxAttempts})`);
        // Again from the failed record, as Lambda does. Records before it are checkpointed: what is read again from
        // there is a new batch, and its attempts are counted afresh (a long batch that moves forward on every attempt
        // is not left behind for having needed more than `maxAttempts` of them, its last one included).
        const from = event.Records.findIndex((r) => r.dynamodb?.SequenceNumber === failed);
        if (from > 0) {
          event.Records = event.Records.slice(from);
          attempt = 0;
        } else if (attempt >= maxAttempts) return undefined;
      } catch (error) {
        opts.log(`[streams] ${opts.handler.name}: batch of shard ${shardId} threw (attempt ${attempt} of ${maxAttempts}): ${lambdaError(error).errorMessage}`);
        if (attempt >= maxAttempts) return undefined;
      }
      if (stopping) return event.Records[0]?.dynamodb?.SequenceNumber;
      await sleep(Math.min(2_000, 100 * 2 ** attempt));
    }
  };

  /** Reads a shard: a batch (within the window) handed over; whether it had records. */
  const pollShard = async (state: ShardState): Promise<boolean> => {
    const shardId = state.shard.ShardId!;
    state.iterator ??= await iteratorAt(shardId, state.last);
    const records: StreamRecordOut[] = [];
    const until = Date.now() + windowMs;
    for (;;) {
      if (!state.iterator) break;
      const answer = await streams.send(new GetRecordsCommand({ ShardIterator: state.iterator, Limit: batchSize - records.length }));
      records.push(...(answer.Records ?? []));
      state.iterator = answer.NextShardIterator;
      if (!state.iterator) break;
      if (records.length === 0 || records.length >= batchSize || Date.now() >= until || stopping) break;
      await sleep(Math.min(pollMs, Math.max(0, until - Date.now())));
    }
    if (records.length > 0) {
      const unapplied = await invoke(shardId, records);
      if (unapplied) {
        // Stopping with a batch not applied: read again from it next time (the checkpoint skips what was).
        state.iterator = await iteratorAt(shardId, undefined, unapplied);
        return true;
      }
      state.last = records[records.length - 1]!.dynamodb?.SequenceNumber;
    }
    if (!state.iterator) state.done = true;
    return records.length > 0;
  };

  const loop = async () => {
    let lastDiscovery = 0;
    while (!stopping) {
      const roundNo = ++round;
      try {
        if (discoverNow || Date.now() - lastDiscovery > 2_000 || shards.size === 0) {
          discoverNow = false;
          await discover();
          lastDiscovery = Date.now();
          discoveredRound = roundNo;
        }
        let any = false;
        for (const state of shards.values()) if (readable(state) && (await pollShard(state))) any = true;
        if (!any) quietRounds = roundNo;
        else await sleep(0);
        if (!any) await sleep(pollMs);
      } catch (error) {
        if (stopping) break;
        opts.log(`[streams] reading the stream failed: ${(error as Error).message}`);
        // A shard whose iterator expired or failed is read again from its last handed-over record.
        for (const state of shards.values()) state.iterator = undefined;
        await sleep(1_000);
      }
    }
  };
  const running = loop();

  return {
    batches: () => batches,
    caughtUp: async (timeoutMs = 30_000) => {
      // A quiet round that read the shards' list after the call: a record written before it in a shard the poller did
      // not know yet (the stream opened a new one) is not missed.
      const from = round;
      discoverNow = true;
      const until = Date.now() + timeoutMs;
      while (quietRounds <= from || discoveredRound <= from || quietRounds < discoveredRound) {
        if (Date.now() > until) throw new Error(`the stream poller did not catch up within ${timeoutMs} ms`);
        await sleep(pollMs / 2);
      }
    },
    stop: async () => {
      stopping = true;
      await running;
      streams.destroy();
    },
  };
};
