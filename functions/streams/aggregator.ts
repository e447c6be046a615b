import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { aggregateChanges } from '#core/streams/aggregate.ts';
import { type StreamChange, StreamApplyError } from '#core/streams/ports.ts';
import { streamCounters } from '#functions/composition/deps-streams.ts';
import { eventHandlers } from '#functions/routes.ts';
import { invocation } from '#middleware/invocation.ts';

/**
 * The event Lambda's DynamoDB event source hands over with a tumbling window configured (lib/stacks/jobs-stack.ts):
 * the records of one stream shard, and that shard's id, which the records themselves do not carry. The window's state
 * is not used (every batch is applied at once); it is answered empty, as Lambda requires.
 */
export type AggregatorEvent = DynamoDBStreamEvent & { shardId?: string; state?: Record<string, string>; isFinalInvokeForWindow?: boolean };
export type AggregatorAnswer = DynamoDBBatchResponse & { state: Record<string, string> };

const imageOf = (image: Record<string, unknown> | undefined) => (image ? unmarshall(image as Record<string, AttributeValue>) : undefined);

const changeOf = (record: DynamoDBRecord): StreamChange => {
  const sequence = record.dynamodb?.SequenceNumber;
  if (!sequence) throw new Error(`stream record ${record.eventID ?? '?'} has no sequence number`);
  const oldImage = imageOf(record.dynamodb?.OldImage);
  const newImage = imageOf(record.dynamodb?.NewImage);
  return { sequence, ...(oldImage ? { oldImage } : {}), ...(newImage ? { newImage } : {}) };
};

/**
 * The stream aggregator (docs/decisions/0040-stream-aggregator.md): the table's stream records, one shard's batch at a
 * time, become the counters' moves, applied exactly once against the shard's checkpoint. A batch that fails part-way
 * answers the first record not applied as its batch item failure (ReportBatchItemFailures): Lambda retries from there,
 * and what was applied is skipped by the checkpoint.
 */
export const handler = (event: AggregatorEvent): Promise<AggregatorAnswer> =>
  invocation({ job: eventHandlers.streamAggregator.name }, async (log) => {
    const records = event.Records ?? [];
    if (records.length === 0) return { batchItemFailures: [], state: {} };
    if (!event.shardId) throw new Error('the stream event carries no shardId: the event source needs its tumbling window (lib/stacks/jobs-stack.ts)');
    try {
      const result = await aggregateChanges({ counters: streamCounters() }, { shardId: event.shardId, changes: records.map(changeOf) });
      log.info('stream batch', { shardId: event.shardId, records: records.length, ...result });
      return { batchItemFailures: [], state: {} };
    } catch (error) {
      if (!(error instanceof StreamApplyError)) throw error;
      log.error('stream batch failed part-way', { shardId: event.shardId, from: error.from, error: error.message });
      return { batchItemFailures: [{ itemIdentifier: error.from }], state: {} };
    }
  });
