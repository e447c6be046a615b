import { describe, expect, it } from 'vitest';
import { dynamoCredits } from '#data/credits.ts';
import { resetJobQueues } from '#adapters/sqs-slice-queue.ts';
import { handler, work } from '#functions/jobs/credit-reset.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { giveCredits } from './billing-support.ts';
import { accountWithRole, useLocalCloudEnv } from './support.ts';

describe('the scheduled credit reset', () => {
  it('resets every account whose period has ended, moves the period, and a second run changes nothing', async () => {
    const due = await accountWithRole('creator', 'job-due');
    const notDue = await accountWithRole('creator', 'job-not-due');
    const ended = new Date(Date.now() - 60_000).toISOString();
    const future = new Date(Date.now() + 10 * 86_400_000).toISOString();
    await giveCredits(due.id, 3, { billingPeriodEnd: ended, monthlyAllocation: 200, planType: 'pro' });
    await giveCredits(notDue.id, 3, { billingPeriodEnd: future });
    useLocalCloudEnv();
    // The job's work as its queue runs it, slice after slice (here in this process, on the memory queue).
    const first = await runToEnd('credit-reset', work);
    expect(first.counts['reset']).toBeGreaterThanOrEqual(1);
    const credits = dynamoCredits();
    const after = (await credits.getAccount(due.id))!;
    expect(after.creditsRemaining).toBe(200);
    expect(Date.parse(after.billingPeriodEnd)).toBeGreaterThan(Date.now());
    expect((await credits.getAccount(notDue.id))!.creditsRemaining).toBe(3);
    await runToEnd('credit-reset', work);
    expect((await credits.getAccount(due.id))!.creditsRemaining).toBe(200);
    expect((await credits.ledger(due.id)).filter((row) => row.actionType === 'monthly_reset')).toHaveLength(1);
  });

  it("runs through the local cloud's own queue: its schedule sends the first slice, the cloud's SQS event source runs the run", async () => {
    const due = await accountWithRole('creator', 'job-queued');
    await giveCredits(due.id, 7, { billingPeriodEnd: new Date(Date.now() - 60_000).toISOString(), monthlyAllocation: 120, planType: 'pro' });
    useLocalCloudEnv();
    resetJobQueues();
    const { started } = (await handler({ time: new Date().toISOString() })) as { started: string };
    expect(started).toMatch(/^credit-reset@/);
    const credits = dynamoCredits();
    const deadline = Date.now() + 30_000;
    while ((await credits.getAccount(due.id))!.creditsRemaining !== 120) {
      if (Date.now() > deadline) throw new Error('the queued run did not reset the account within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect((await credits.ledger(due.id)).filter((row) => row.actionType === 'monthly_reset')).toHaveLength(1);
  });
});
