import { beforeAll, describe, expect, it } from 'vitest';
import type { CreditAccount, LedgerEntry } from '#core/ports.ts';
import { accountPut, creditKeys, dynamoCredits } from '#data/credits.ts';
import { transact } from '#data/table.ts';
import { giveCredits } from '../billing-support.ts';
import { useLocalCloudEnv } from '../support.ts';
import { rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const spendOf = (credits: number, createdAt = '2026-11-21T12:00:00.000Z', description?: string): LedgerEntry => ({
  actionType: 'landing_page_generation',
  credits: -credits,
  createdAt,
  ...(description ? { description } : {}),
});

const accountOf = async (balance: number, over: Partial<CreditAccount> = {}) => {
  const userId = unique('credits');
  await giveCredits(userId, balance, over);
  return userId;
};

describe('the credit accounts (DynamoDB Local)', () => {
  it('reads an account, and nothing for a user without one', async () => {
    const credits = dynamoCredits();
    const userId = await accountOf(40, { monthlyAllocation: 200, planType: 'pro' });
    expect(await credits.getAccount(userId)).toEqual({ userId, creditsRemaining: 40, creditsUsed: 0, monthlyAllocation: 200, planType: 'pro', billingPeriodEnd: '2030-01-01T00:00:00.000Z' });
    expect(await credits.getAccount(unique('nobody'))).toBeUndefined();
    expect(await credits.lastTransaction(unique('nobody'))).toBeUndefined();
  });

  it('spends: debits, counts the use, writes the row with its note, and answers with the account as left', async () => {
    const credits = dynamoCredits();
    const userId = await accountOf(100);
    const entry = spendOf(15, '2099-01-01T00:00:00.000Z', 'Spring page');
    expect(await credits.spend({ userId, entry, key: 'use:1', requestHash: 'h1' })).toEqual({
      status: 'spent',
      account: expect.objectContaining({ userId, creditsRemaining: 85, creditsUsed: 15 }),
      entry,
    });
    expect(await credits.lastTransaction(userId)).toEqual(entry);
  });

  it('reads the newest ledger lines first, as many as asked (the credits card\'s history)', async () => {
    const credits = dynamoCredits();
    const userId = await accountOf(100);
    const outline = { actionType: 'course_outline_generation', credits: -5, createdAt: '2099-01-01T00:00:00.000Z' };
    const refund = { actionType: 'course_outline_refund', credits: 5, createdAt: '2099-01-01T00:00:01.000Z' };
    const quiz = { actionType: 'quiz_from_lesson_generation', credits: -3, createdAt: '2099-01-01T00:00:02.000Z' };
    await credits.spend({ userId, entry: outline, key: 'use:1', requestHash: 'h1' });
    await credits.credit({ userId, entry: refund, key: 'refund:1' });
    await credits.spend({ userId, entry: quiz, key: 'use:2', requestHash: 'h2' });
    expect(await credits.recentTransactions(userId, 2)).toEqual([quiz, refund]);
    expect(await credits.recentTransactions(userId, 10)).toHaveLength(4);
    expect(await credits.recentTransactions(unique('nobody'), 10)).toEqual([]);
  });

  it('refuses a spend the balance does not cover, answering with that balance and writing nothing', async () => {
    const credits = dynamoCredits();
    const userId = await accountOf(10);
    expect(await credits.spend({ userId, entry: spendOf(15), key: 'use:1', requestHash: 'h1' })).toEqual({
      status: 'insufficient',
      account: expect.objectContaining({ userId, creditsRemaining: 10, creditsUsed: 0 }),
    });
    expect(await credits.ledger(userId)).toHaveLength(1);
    expect(await rawItem(creditKeys.guard(userId, 'use:1'))).toBeUndefined();
  });

  it('answers a replayed spend with the original entry and charges it once', async () => {
    const credits = dynamoCredits();
    const userId = await accountOf(100);
    const first = spendOf(15, '2026-11-21T12:00:00.000Z');
    await credits.spend({ userId, entry: first, key: 'use:k', requestHash: 'h1' });
    expect(await credits.spend({ userId, entry: spendOf(15, '2026-11-21T12:00:09.000Z'), key: 'use:k', requestHash: 'h1' })).toEqual({
      status: 'replayed',
      account: expect.objectContaining({ creditsRemaining: 85 }),
      entry: first,
    });
    expect((await credits.ledger(userId)).filter((row) => row.credits < 0)).toEqual([first]);
  });

  it('replays even once the balance no longer covers the spend', async () => {
    const credits = dynamoCredits();
    const userId = await accountOf(15);
    await credits.spend({ userId, entry: spendOf(15), key: 'use:k', requestHash: 'h1' });
    expect(await credits.spend({ userId, entry: spendOf(15), key: 'use:k', requestHash: 'h1' })).toMatchObject({ status: 'replayed', account: { creditsRemaining: 0 } });
  });

  it('refuses a key reused for another request, and a spend with no account', async () => {
    const credits = dynamoCredits();
    const userId = await accountOf(100);
    await credits.spend({ userId, entry: spendOf(15), key: 'use:k', requestHash: 'h1' });
    expect(await credits.spend({ userId, entry: spendOf(30), key: 'use:k', requestHash: 'h2' })).toEqual({ status: 'key-reused' });
    expect(await credits.spend({ userId: unique('nobody'), entry: spendOf(1), key: 'use:x', requestHash: 'h' })).toEqual({ status: 'no-account' });
    expect(await credits.getAccount(userId)).toMatchObject({ creditsRemaining: 85 });
  });

  it('never overdraws under concurrent spends', async () => {
    const credits = dynamoCredits();
    const userId = await accountOf(50);
    const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => credits.spend({ userId, entry: spendOf(15), key: `use:${i}`, requestHash: 'h' })));
    expect(outcomes.filter((o) => o.status === 'spent')).toHaveLength(3);
    expect(outcomes.filter((o) => o.status === 'insufficient')).toHaveLength(5);
    expect(await credits.getAccount(userId)).toMatchObject({ creditsRemaining: 5, creditsUsed: 45 });
  });

  it('gives credits back once per key, and none to a user without an account', async () => {
    const credits = dynamoCredits();
    const userId = await accountOf(10);
    const refund = { actionType: 'refund', credits: 15, createdAt: '2026-11-21T12:00:00.000Z' };
    expect(await credits.credit({ userId, entry: refund, key: 'refund:1' })).toBe('credited');
    expect(await credits.credit({ userId, entry: refund, key: 'refund:1' })).toBe('replayed');
    expect(await credits.credit({ userId: unique('nobody'), entry: refund, key: 'refund:1' })).toBe('no-account');
    expect(await credits.getAccount(userId)).toMatchObject({ creditsRemaining: 25 });
  });

  it('lists the accounts due for a reset, a page at a time, oldest period first', async () => {
    const credits = dynamoCredits();
    // Periods in the year 2000: only these accounts are due at that date (the rest of the suite works in 2026+).
    const userIds = Array.from({ length: 101 }, (_, i) => `${unique('due')}-${String(i).padStart(3, '0')}`);
    for (let i = 0; i < userIds.length; i += 25) {
      await transact(
        userIds.slice(i, i + 25).map((userId, j) =>
          accountPut({ userId, creditsRemaining: 1, creditsUsed: 0, monthlyAllocation: 50, planType: 'starter', billingPeriodEnd: `2000-01-01T00:00:${String((i + j) % 60).padStart(2, '0')}.000Z` }),
        ),
      );
    }
    const notYet = await credits.listDueForReset('1999-12-31T23:59:59.000Z');
    expect(notYet.accounts.filter((a) => userIds.includes(a.userId))).toEqual([]);

    const first = await credits.listDueForReset('2000-01-02T00:00:00.000Z');
    expect(first.accounts).toHaveLength(100);
    expect(first.cursor).toBeDefined();
    const rest = await credits.listDueForReset('2000-01-02T00:00:00.000Z', first.cursor);
    expect(rest.cursor).toBeUndefined();
    const listed = [...first.accounts, ...rest.accounts];
    expect(listed.map((a) => a.userId).sort()).toEqual([...userIds].sort());
    const ends = listed.map((a) => a.billingPeriodEnd);
    expect(ends).toEqual([...ends].sort());
  });

  it('resets from the balance it read, once per period, and moves the account in the reset index', async () => {
    const credits = dynamoCredits();
    const userId = await accountOf(5, { billingPeriodEnd: '2026-11-01T00:00:00.000Z' });
    const seen = (await credits.getAccount(userId))!;
    const next = { ...seen, creditsRemaining: 50, creditsUsed: 0, billingPeriodEnd: '2026-12-01T00:00:00.000Z' };
    const entry = { actionType: 'monthly_reset', credits: 45, createdAt: '2026-11-21T12:00:00.000Z' };
    expect(await credits.reset({ seen, next, entry, key: 'reset:2026-11' })).toBe('reset');
    expect(await credits.getAccount(userId)).toEqual(next);
    expect(await rawItem(creditKeys.account(userId))).toMatchObject({ gsi1sk: `2026-12-01T00:00:00.000Z#${userId}` });
    expect(await credits.reset({ seen, next, entry, key: 'reset:2026-11' })).toBe('already');
    expect(await credits.reset({ seen, next, entry, key: 'reset:2026-12' })).toBe('changed');
    expect((await credits.getAccount(userId))?.creditsRemaining).toBe(50);
  });

  it('keeps every ledger row, oldest first, summing to the balance', async () => {
    const credits = dynamoCredits();
    const userId = await accountOf(100);
    await credits.spend({ userId, entry: spendOf(10, '2099-01-02T00:00:00.000Z'), key: 'use:b', requestHash: 'h' });
    await credits.spend({ userId, entry: spendOf(20, '2099-01-01T00:00:00.000Z'), key: 'use:a', requestHash: 'h' });
    const ledger = await credits.ledger(userId);
    expect(ledger.map((row) => row.credits)).toEqual([100, -20, -10]);
    expect(ledger.reduce((sum, row) => sum + row.credits, 0)).toBe((await credits.getAccount(userId))!.creditsRemaining);
    expect(await credits.lastTransaction(userId)).toMatchObject({ credits: -10 });
  });
});
