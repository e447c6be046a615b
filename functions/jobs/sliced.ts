import type { Context, ScheduledEvent, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { sqsSliceQueue } from '#adapters/sqs-slice-queue.ts';
import { firstSlice, runSlice, type SliceWork } from '#core/jobs/slices.ts';
import type { Slice, SliceQueue } from '#core/jobs/ports.ts';
import { invocation } from '#middleware/invocation.ts';
import { describeError } from '#middleware/logger.ts';

/** What starts a sliced job: its schedule (EventBridge Scheduler), its queue (the SQS event source), or a direct call. */
export type SlicedJobEvent = Partial<ScheduledEvent> | SQSEvent;

const isSqsEvent = (event: SlicedJobEvent): event is SQSEvent => Array.isArray((event as SQSEvent).Records);

/** What the job's handler is given besides the event (tests inject the queue and the clock of the run). */
export interface SlicedJobOptions {
  queue?: () => SliceQueue;
  /** The time a scheduled run is named by when the event has none (a direct call): now. */
  now?: () => Date;
}

/**
 * A job of the engine (decision 0032) as one Lambda handler:
 * - started by its schedule, it sends the run's first slice to its own queue (`<job>@<the schedule's time>`: a
 *   double delivery of one schedule is one run, the queue keeps one first slice) and ends;
 * - started by its queue (batch size 1), it runs each slice with `work` and reports the ones that failed as
 *   `batchItemFailures`: SQS delivers those again after the visibility timeout, then to the job's dead-letter queue.
 */
export const slicedJob =
  <C extends Record<string, number>>(job: string, work: (remainingMs: () => number) => SliceWork<C>, options: SlicedJobOptions = {}) =>
  (event: SlicedJobEvent = {}, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<SQSBatchResponse | { started: string }> =>
    invocation({ job }, async (log) => {
      const queue = (options.queue ?? sqsSliceQueue)();
      const remainingMs = () => context?.getRemainingTimeInMillis() ?? 25_000;
      if (!isSqsEvent(event)) {
        const run = `${job}@${event.time ?? (options.now?.() ?? new Date()).toISOString()}`;
        await queue.send([firstSlice(job, run)]);
        log.info('run started', { run, scheduledAt: event.time });
        return { started: run };
      }
      const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
      for (const record of event.Records) {
        try {
          const slice = JSON.parse(record.body) as Slice;
          const result = await runSlice({ queue, remainingMs }, slice, work(remainingMs));
          log.info('slice done', { run: slice.run, lane: slice.lane, seq: slice.seq, ...result.counts, continued: result.continued, lanes: result.lanes });
        } catch (error) {
          log.error('slice failed', { messageId: record.messageId, error: describeError(error) });
          batchItemFailures.push({ itemIdentifier: record.messageId });
        }
      }
      return { batchItemFailures };
    });
