import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { resetJobQueues } from '#adapters/sqs-slice-queue.ts';
import { SLICE_MARGIN_MS, type SliceWork } from '#core/jobs/slices.ts';
import { dynamoCredits } from '#data/credits.ts';
import { resetConfig } from '#functions/config.ts';
import { work } from '#functions/jobs/credit-reset.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';
import { type Delivery, type JobEventSource, startJobEventSource } from '#lib/local/sqs/event-source.ts';
import { startSqsStandIn, type SqsStandIn } from '#lib/local/sqs/stand-in.ts';
import { giveCredits } from './billing-support.ts';

/**
 * The credit reset through the job engine's real local wiring: the SQS stand-in, the event source's poller, the job's
 * handler and the SQS adapter, against DynamoDB Local. A stand-in of this test's own, so it can run a handler that
 * dies once.
 */
let standIn: SqsStandIn | undefined;
let source: JobEventSource | undefined;
afterEach(async () => {
  await source?.stop();
  await standIn?.stop();
  source = standIn = undefined;
});

const ACCOUNTS = 300;

describe('a credit reset run killed mid-slice', () => {
  it('resets every due account exactly once, finishes, and leaves nothing in the dead-letter queue', async () => {
    const tag = randomUUID().slice(0, 8);
    const users = Array.from({ length: ACCOUNTS }, (_, i) => `reset-kill-${tag}-${String(i).padStart(3, '0')}`);
    const ended = new Date(Date.now() - 60_000).toISOString();
    for (let i = 0; i < users.length; i += 25) {
      await Promise.all(users.slice(i, i + 25).map((userId) => giveCredits(userId, 1, { billingPeriodEnd: ended, monthlyAllocation: 50 })));
    }

    // The job's own work, with one fault: the first delivery of the run's second slice dies after 20 accounts, as a
    // Lambda killed mid-slice (its continuation never sent). The first slice stops after 50 accounts at most, so the
    // second one has work left whatever the machine's speed.
    let died = false;
    const dying = (): SliceWork<{ reset: number; skipped: number }> => {
      const real = work();
      return (slice, timeUp) => {
        let checks = 0;
        if (slice.seq === 0) return real(slice, () => ++checks >= 50 || timeUp());
        if (slice.seq === 1 && !died) {
          return real(slice, () => {
            if (++checks === 20) {
              died = true;
              throw new Error('killed mid-slice');
            }
            return false;
          });
        }
        return real(slice, timeUp);
      };
    };
    const handler = slicedJob('credit-reset', dying);

    const deliveries: Delivery[] = [];
    standIn = await startSqsStandIn({ port: 0 });
    source = await startJobEventSource({
      endpoint: standIn.url,
      region: 'eu-west-2',
      // Slices of ~0.5 s of work (the margin is kept back), visible again 2 s after a failure.
      jobs: [{ name: 'credit-reset', handler: 'jobs/credit-reset', timeoutMs: SLICE_MARGIN_MS + 500 }],
      visibilityTimeoutSeconds: () => 2,
      log: () => undefined,
      load: () => Promise.resolve(handler as never),
      onDelivery: (delivery) => deliveries.push(delivery),
    });
    // The handler's SQS adapter sends to this stand-in.
    process.env['SQS_ENDPOINT'] = standIn.url;
    process.env['JOB_QUEUE_URLS'] = JSON.stringify(source.queueUrls);
    resetConfig();
    resetJobQueues();

    // Its schedule starts the run: the first slice goes to the queue, the poller takes it from there.
    const started = (await handler({ time: new Date().toISOString() })) as { started: string };
    expect(started.started).toMatch(/^credit-reset@/);
    const queueUrl = source.queueUrls['credit-reset']!;
    const deadline = Date.now() + 90_000;
    // Finished: nothing waiting and nothing in flight (a slice being run, or one that failed and waits to come back).
    while (deliveries.length === 0 || (await source.pending(queueUrl)) > 0) {
      if (Date.now() > deadline) throw new Error(`the run did not finish: ${JSON.stringify(deliveries.slice(-5))}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    expect(died).toBe(true);
    // The handler caught the slice's death and reported it as a partial batch failure: left on the queue, not deleted.
    const killed = deliveries.filter((d) => d.outcome !== 'deleted');
    expect(killed).toEqual([expect.objectContaining({ outcome: 'failed', receiveCount: 1 })]);
    // The killed slice came back and went through.
    expect(deliveries).toContainEqual(expect.objectContaining({ messageId: killed[0]!.messageId, receiveCount: 2, outcome: 'deleted' }));
    expect(deliveries.filter((d) => d.outcome === 'deleted').length).toBeGreaterThanOrEqual(3);
    expect(await source.pending(source.deadLetterQueueUrl)).toBe(0);

    const credits = dynamoCredits();
    const wrong: string[] = [];
    for (let i = 0; i < users.length; i += 25) {
      await Promise.all(
        users.slice(i, i + 25).map(async (userId) => {
          const resets = (await credits.ledger(userId)).filter((row) => row.actionType === 'monthly_reset').length;
          const account = (await credits.getAccount(userId))!;
          if (resets !== 1 || account.creditsRemaining !== 50 || Date.parse(account.billingPeriodEnd) <= Date.now()) {
            wrong.push(`${userId}: ${resets} resets, ${account.creditsRemaining} credits, period ${account.billingPeriodEnd}`);
          }
        }),
      );
    }
    expect(wrong).toEqual([]);
  });
});
