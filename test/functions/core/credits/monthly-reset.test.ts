import { describe, expect, it } from 'vitest';
import { resetAccount, resetDueAccounts } from '#core/credits/credits.ts';
import { firstSlice, runSlice, SLICE_MARGIN_MS } from '#core/jobs/slices.ts';
import { testClock } from '#test/functions/fakes/clock.ts';
import { creditAccount, memoryCredits } from '#test/functions/fakes/credits.ts';
import { memorySliceQueue, runToEnd } from '#test/functions/fakes/slice-queue.ts';

const ENDED = '2026-11-01T00:00:00.000Z';

const setup = (options: { pageSize?: number } = {}) => ({ credits: memoryCredits(options), clock: testClock('2026-11-21T12:00:00.000Z') });

describe('the monthly reset of one account', () => {
  it('tops the balance back up to the allocation, zeroes used credits and moves the period on', async () => {
    const d = setup();
    const account = creditAccount({ creditsRemaining: 5, creditsUsed: 45, billingPeriodEnd: ENDED });
    d.credits.open(account);
    expect(await resetAccount(d, account)).toBe('reset');
    expect(await d.credits.getAccount('u1')).toEqual(creditAccount({ creditsRemaining: 50, creditsUsed: 0, billingPeriodEnd: '2026-12-01T00:00:00.000Z' }));
    expect(await d.credits.lastTransaction('u1')).toEqual({ actionType: 'monthly_reset', credits: 45, createdAt: '2026-11-21T12:00:00.000Z' });
  });

  it('keeps credits above the allocation (bought top-ups)', async () => {
    const d = setup();
    const account = creditAccount({ creditsRemaining: 130, billingPeriodEnd: ENDED });
    d.credits.open(account);
    await resetAccount(d, account);
    expect(await d.credits.getAccount('u1')).toMatchObject({ creditsRemaining: 130, creditsUsed: 0 });
    expect(await d.credits.lastTransaction('u1')).toMatchObject({ actionType: 'monthly_reset', credits: 0 });
  });

  it('applies a period once: a second run changes nothing', async () => {
    const d = setup();
    const account = creditAccount({ creditsRemaining: 5, billingPeriodEnd: ENDED });
    d.credits.open(account);
    await resetAccount(d, account);
    await d.credits.spend({ userId: 'u1', entry: { actionType: 'x', credits: -10, createdAt: '2026-11-21T12:00:01.000Z' }, key: 'use:1', requestHash: 'h' });
    expect(await resetAccount(d, account)).toBe('already');
    expect((await d.credits.getAccount('u1'))?.creditsRemaining).toBe(40);
  });

  it('leaves an account whose period has not ended', async () => {
    const d = setup();
    const account = creditAccount({ creditsRemaining: 5, billingPeriodEnd: '2026-12-01T00:00:00.000Z' });
    d.credits.open(account);
    expect(await resetAccount(d, account)).toBe('not-due');
    expect((await d.credits.getAccount('u1'))?.creditsRemaining).toBe(5);
  });

  it('re-reads the balance when a spend lands during the reset, and resets from what it finds', async () => {
    const d = setup();
    const account = creditAccount({ creditsRemaining: 60, billingPeriodEnd: ENDED });
    d.credits.open(account);
    d.credits.before('reset', (call) =>
      call === 1
        ? d.credits.spend({ userId: 'u1', entry: { actionType: 'x', credits: -30, createdAt: '2026-11-21T11:59:59.000Z' }, key: 'use:race', requestHash: 'h' })
        : undefined,
    );
    expect(await resetAccount(d, account)).toBe('reset');
    expect(await d.credits.getAccount('u1')).toMatchObject({ creditsRemaining: 50, creditsUsed: 0 });
    const ledger = await d.credits.ledger('u1');
    expect(ledger.reduce((sum, row) => sum + row.credits, 0)).toBe(50);
  });

  it('reports an account gone in the meantime as already handled', async () => {
    const d = setup();
    const account = creditAccount({ billingPeriodEnd: ENDED });
    expect(await resetAccount(d, account)).toBe('already');
  });

  it('fails loudly instead of reporting the account as not due when it keeps changing', async () => {
    const d = setup();
    const account = creditAccount({ creditsRemaining: 60, billingPeriodEnd: ENDED });
    d.credits.open(account);
    d.credits.before('reset', (call) => {
      d.credits.tables.accounts.get('u1')!.creditsRemaining = 60 - call;
    });
    await expect(resetAccount(d, account)).rejects.toThrow(/kept changing/);
    expect((await d.credits.ledger('u1')).map((row) => row.actionType)).toEqual(['test_grant']);
  });
});

describe('the scheduled reset job, in slices (decision 0032)', () => {
  it('resets every due account, page by page, and skips the ones a parallel run already did', async () => {
    const d = setup({ pageSize: 2 });
    for (const userId of ['a', 'b', 'c', 'd', 'e']) d.credits.open(creditAccount({ userId, creditsRemaining: 1, billingPeriodEnd: ENDED }));
    d.credits.open(creditAccount({ userId: 'later', creditsRemaining: 1, billingPeriodEnd: '2026-12-01T00:00:00.000Z' }));
    d.credits.before('reset', async (call) => {
      // A parallel run resets "c" just before this run gets to it.
      if (call === 3) await d.credits.reset({ seen: (await d.credits.getAccount('c'))!, next: creditAccount({ userId: 'c', creditsRemaining: 50, billingPeriodEnd: '2026-12-01T00:00:00.000Z' }), entry: { actionType: 'monthly_reset', credits: 49, createdAt: '2026-11-21T12:00:00.000Z' }, key: 'reset:2026-11' });
    });
    expect((await runToEnd('credit-reset', () => resetDueAccounts(d))).counts).toEqual({ reset: 4, skipped: 1 });
    for (const userId of ['a', 'b', 'c', 'd', 'e']) expect(await d.credits.getAccount(userId)).toMatchObject({ creditsRemaining: 50, billingPeriodEnd: '2026-12-01T00:00:00.000Z' });
    expect((await d.credits.getAccount('later'))?.creditsRemaining).toBe(1);
    expect((await runToEnd('credit-reset', () => resetDueAccounts(d))).counts).toEqual({ reset: 0, skipped: 0 });
  });

  it('stops when its time is up and hands the rest on: many short slices reset each account once', async () => {
    const d = setup({ pageSize: 3 });
    const users = Array.from({ length: 20 }, (_, i) => `u${String(i).padStart(2, '0')}`);
    for (const userId of users) d.credits.open(creditAccount({ userId, creditsRemaining: 1, billingPeriodEnd: ENDED }));
    // No time at all: each slice does its one account (a chain always moves), then sends its continuation.
    const { counts, slices } = await runToEnd('credit-reset', () => resetDueAccounts(d), { sliceMs: -SLICE_MARGIN_MS });
    expect(counts).toEqual({ reset: 20, skipped: 0 });
    expect(slices).toBeGreaterThanOrEqual(20);
    for (const userId of users) expect((await d.credits.ledger(userId)).filter((row) => row.actionType === 'monthly_reset')).toHaveLength(1);
  });

  it('loses and doubles nothing when a slice dies mid-way and is delivered again', async () => {
    const d = setup({ pageSize: 4 });
    const users = Array.from({ length: 10 }, (_, i) => `k${i}`);
    for (const userId of users) d.credits.open(creditAccount({ userId, creditsRemaining: 1, billingPeriodEnd: ENDED }));
    const { queue } = memorySliceQueue();
    await queue.send([firstSlice('credit-reset', 'credit-reset@test')]);
    let checks = 0;
    let died = false;
    let deliveries = 0;
    while (queue.queued.length > 0) {
      const slice = queue.queued.shift()!;
      deliveries++;
      // The first slice dies after its sixth account (its continuation never sent); SQS delivers it again.
      const timeUp = () => {
        if (!died && ++checks === 7) {
          died = true;
          throw new Error('killed mid-slice');
        }
        return false;
      };
      try {
        await runSlice({ queue, remainingMs: () => 60_000 }, slice, (s) => resetDueAccounts(d)(s, timeUp));
      } catch {
        queue.queued.unshift(slice);
      }
    }
    expect(died).toBe(true);
    expect(deliveries).toBe(2);
    for (const userId of users) {
      expect(await d.credits.getAccount(userId)).toMatchObject({ creditsRemaining: 50 });
      expect((await d.credits.ledger(userId)).filter((row) => row.actionType === 'monthly_reset')).toHaveLength(1);
    }
  });
});
