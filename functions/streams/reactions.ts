import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { eventHandlers } from '#functions/routes.ts';
import { invocation } from '#middleware/invocation.ts';
import { describeError, type ScopedLog } from '#middleware/logger.ts';
import type { Reaction } from '#functions/streams/reactions/reaction.ts';
import { orderReceipts } from '#functions/streams/reactions/order-receipts.ts';
import { sequenceEntries } from '#functions/streams/reactions/sequence-entries.ts';
import { sessionInvitations } from '#functions/streams/reactions/session-invitations.ts';
import { webhookEvents } from '#functions/streams/reactions/webhook-events.ts';

/**
 * Every reaction to a change of the table but the counters (docs/decisions/0050-one-reactions-consumer.md). A new one
 * is added here, and the records it wants to the event source's filters (`eventHandlers.reactions.filters`).
 */
export const reactions: readonly Reaction[] = [sessionInvitations, orderReceipts, webhookEvents as Reaction, sequenceEntries as Reaction];

/**
 * The table's stream, second consumer: each record goes through every reaction in order. A record that fails is
 * reported (ReportBatchItemFailures): the batch is retried from it (so the reactions that already ran on it run again:
 * they are idempotent), the records before it not again. Each reaction's end of batch runs for what went through.
 */
export const runReactions = async (list: readonly Reaction[], event: DynamoDBStreamEvent, log: ScopedLog): Promise<DynamoDBBatchResponse> => {
  const batches = list.map((reaction) => [reaction, reaction.startBatch()] as const);
  for (const [reaction, batch] of batches) reaction.ahead?.(batch, event.Records ?? [], log);
  let failure: DynamoDBBatchResponse['batchItemFailures'] = [];
  records: for (const record of event.Records ?? []) {
    for (const [reaction, batch] of batches) {
      try {
        await reaction.onRecord(batch, record, log);
      } catch (error) {
        log.error('reaction failed: the batch is retried from this record', { reaction: reaction.name, error: describeError(error) });
        failure = [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' }];
        break records;
      }
    }
  }
  for (const [reaction, batch] of batches) {
    await reaction.endBatch?.(batch, log).catch((error: unknown) => log.warn('end of batch failed: what it starts goes with the next scheduled run', { reaction: reaction.name, error: describeError(error) }));
  }
  log.info('stream batch', { records: event.Records?.length ?? 0 });
  return { batchItemFailures: failure };
};

export const handler = (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> =>
  invocation({ job: eventHandlers.reactions.name }, (log) => runReactions(reactions, event, log));
