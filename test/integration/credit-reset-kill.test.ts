import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SLICE_MARGIN_MS } from '#core/jobs/slices.ts';
import { dynamoCredits } from '#data/credits.ts';
import { work } from '#functions/jobs/credit-reset.ts';
import { giveCredits } from './billing-support.ts';
import { expectKilledOnceAndRedelivered, runKilledThroughQueue } from './kill-support.ts';

/**
 * The credit reset through the job engine's real local wiring: the SQS stand-in, the event source's poller, the job's
 * handler and the SQS adapter, against DynamoDB Local (kill-support.ts), its run's second slice killed mid-way.
 */

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
    // second one has work left whatever the machine's speed. Slices of ~0.5 s of work (the margin is kept back).
    const run = await runKilledThroughQueue({
      job: 'credit-reset',
      work: () => work(),
      timeoutMs: SLICE_MARGIN_MS + 500,
      kill: { at: (slice) => slice.seq === 1, afterChecks: 20 },
      itemsPerSlice: (slice) => (slice.seq === 0 ? 50 : undefined),
      finishWithinMs: 90_000,
    });

    expectKilledOnceAndRedelivered(run);
    expect(run.deliveries.filter((d) => d.outcome === 'deleted').length).toBeGreaterThanOrEqual(3);

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
