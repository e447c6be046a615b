import { expect } from 'vitest';
import { resetJobQueues, sqsSliceQueue } from '#adapters/sqs-slice-queue.ts';
import type { Slice } from '#core/jobs/ports.ts';
import type { SliceWork } from '#core/jobs/slices.ts';
import { resetConfig } from '#functions/config.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';
import { type Delivery, startJobEventSource } from '#lib/local/sqs/event-source.ts';
import { startSqsStandIn } from '#lib/local/sqs/stand-in.ts';

/** What a run killed mid-slice came to: every delivery of its slices, and what was left in the dead-letter queue. */
export interface KilledRun {
  readonly deliveries: readonly Delivery[];
  /** Whether the chosen slice died (its first delivery only). */
  readonly died: boolean;
  readonly deadLetters: number;
}

/**
 * A sliced job's run through the job engine's real local wiring (an SQS stand-in of the test's own, the event
 * source's poller, the job's handler and its SQS adapter), against DynamoDB Local, with one fault: the first delivery
 * of the slice `kill.at` picks dies after `kill.afterChecks` budget checks, as a Lambda killed mid-slice (its
 * continuation never sent). `itemsPerSlice` stops the other slices after that many checks (none: their time budget),
 * so the run has several slices whatever the machine's speed. The job's schedule starts the run (or `first`, a run a
 * request starts); this resolves once
 * nothing is waiting or in flight on its queue (a slice being run, or one that failed and waits to come back), and
 * stops the stand-in and the poller.
 */
export const runKilledThroughQueue = async <C extends Record<string, number>>(opts: {
  job: string;
  work: (remainingMs: () => number) => SliceWork<C>;
  /** The job's function timeout: its slices work for this long less the engine's margin. */
  timeoutMs: number;
  kill: { at: (slice: Slice) => boolean; afterChecks: number };
  itemsPerSlice?: (slice: Slice) => number | undefined;
  finishWithinMs: number;
  /** The run's first slice, for a job started by a request rather than its schedule (sent to its queue as the route does). */
  first?: Slice;
}): Promise<KilledRun> => {
  let died = false;
  const dying = (remainingMs: () => number): SliceWork<C> => {
    const real = opts.work(remainingMs);
    return (slice, timeUp) => {
      let checks = 0;
      if (!died && opts.kill.at(slice)) {
        return real(slice, () => {
          if (++checks === opts.kill.afterChecks) {
            died = true;
            throw new Error('killed mid-slice');
          }
          return false;
        });
      }
      const cap = opts.itemsPerSlice?.(slice);
      return real(slice, cap === undefined ? timeUp : () => ++checks >= cap || timeUp());
    };
  };
  const handler = slicedJob(opts.job, dying);

  const deliveries: Delivery[] = [];
  const standIn = await startSqsStandIn({ port: 0 });
  const source = await startJobEventSource({
    endpoint: standIn.url,
    region: 'eu-west-2',
    jobs: [{ name: opts.job, handler: `jobs/${opts.job}`, timeoutMs: opts.timeoutMs }],
    // A failed slice is visible again 2 s later.
    visibilityTimeoutSeconds: () => 2,
    log: () => undefined,
    load: () => Promise.resolve(handler as never),
    onDelivery: (delivery) => deliveries.push(delivery),
  });
  try {
    // The handler's SQS adapter sends to this stand-in.
    process.env['SQS_ENDPOINT'] = standIn.url;
    process.env['JOB_QUEUE_URLS'] = JSON.stringify(source.queueUrls);
    resetConfig();
    resetJobQueues();

    if (opts.first) {
      // Started by a request: its first slice sent through the job's SQS adapter, as the route sends it.
      await sqsSliceQueue().send([opts.first]);
    } else {
      // Its schedule starts the run: the first slice goes to the queue, the poller takes it from there.
      const started = (await handler({ time: new Date().toISOString() })) as { started: string };
      expect(started.started).toMatch(new RegExp(`^${opts.job}@`));
    }
    const queueUrl = source.queueUrls[opts.job]!;
    const deadline = Date.now() + opts.finishWithinMs;
    while (deliveries.length === 0 || (await source.pending(queueUrl)) > 0) {
      if (Date.now() > deadline) throw new Error(`the run did not finish: ${JSON.stringify(deliveries.slice(-5))}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { deliveries, died, deadLetters: await source.pending(source.deadLetterQueueUrl) };
  } finally {
    await source.stop();
    await standIn.stop();
  }
};

/**
 * The killed slice died once, the handler reported it as a partial batch failure (left on the queue, not deleted), it
 * came back and went through; nothing reached the dead-letter queue.
 */
export const expectKilledOnceAndRedelivered = (run: KilledRun): void => {
  expect(run.died).toBe(true);
  const killed = run.deliveries.filter((d) => d.outcome !== 'deleted');
  expect(killed).toEqual([expect.objectContaining({ outcome: 'failed', receiveCount: 1 })]);
  expect(run.deliveries).toContainEqual(expect.objectContaining({ messageId: killed[0]!.messageId, receiveCount: 2, outcome: 'deleted' }));
  expect(run.deadLetters).toBe(0);
};
