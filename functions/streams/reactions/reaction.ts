import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { ScopedLog } from '#middleware/logger.ts';
import { onceByKey } from '#core/once-by-key.ts';

/**
 * One thing the platform does when an item of the table changes, run by the stream's second consumer
 * (functions/streams/reactions.ts, docs/decisions/0050-one-reactions-consumer.md). DynamoDB Streams serve at most two
 * readers per shard without throttling, and the aggregator is the first: every other reaction to a change joins this
 * list instead of adding a consumer, and the records it wants to the consumer's filters (`eventHandlers.reactions` in
 * functions/routes.ts: the event source ORs them; the local poller hands over every record, so `onRecord` checks again).
 *
 * A reaction must be idempotent: a failing record is retried from itself (ReportBatchItemFailures), so the reactions
 * that already ran on it run again, and a batch may be delivered twice.
 */
export interface Reaction<Batch = unknown> {
  readonly name: string;
  /** What the reaction keeps for one batch (its dependencies, memos, what to do once at the end). */
  startBatch(): Batch;
  /**
   * Optional: sees the batch's records before `onRecord` has any, to start what they owe side by side (a flash sale's
   * receipts, a few at a time): `onRecord` then waits for its record's part, so the batch still goes through in order
   * and a failure still retries it from its record. Must not throw.
   */
  ahead?(batch: Batch, records: readonly DynamoDBRecord[], log: ScopedLog): void;
  /** Acts on one record (any record: ignore what is not yours). Throws to have the batch retried from this record. */
  onRecord(batch: Batch, record: DynamoDBRecord, log: ScopedLog): Promise<void>;
  /** Once after the batch's records (e.g. start the mail sender for what was queued); its failure is only logged. */
  endBatch?(batch: Batch, log: ScopedLog): Promise<void>;
}

/** A record's old or new image as a plain item. */
export const imageOf = (image: Record<string, unknown> | undefined): Record<string, unknown> | undefined =>
  image ? unmarshall(image as Record<string, AttributeValue>) : undefined;

export const oldImage = (record: DynamoDBRecord) => imageOf(record.dynamodb?.OldImage);
export const newImage = (record: DynamoDBRecord) => imageOf(record.dynamodb?.NewImage);

/** What a batch's records share, read once per batch (core/once-by-key.ts). */
export const perBatch = onceByKey;
