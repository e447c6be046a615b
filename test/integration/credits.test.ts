import { describe, expect, it } from 'vitest';
import { dynamoCredits } from '#data/credits.ts';
import { resetAccount } from '#core/credits/credits.ts';
import { giveCredits, credits } from './billing-support.ts';
import { accountWithRole, api, useLocalCloudEnv } from './support.ts';

const spend = (token: string, creditsToUse: number, key?: string) =>
  api('POST', '/api/credits/use', { token, body: { creditsToUse, actionType: 'landing_page_generation' }, ...(key ? { headers: { 'idempotency-key': key } } : {}) });

const ledgerSum = async (userId: string) => {
  useLocalCloudEnv();
  const rows = await dynamoCredits().ledger(userId);
  return { rows, sum: rows.reduce((total, row) => total + row.credits, 0) };
};

describe('spending AI credits', () => {
  it('50 concurrent spends of 15 against 100: exactly 6 succeed, 44 get 402, the balance is 10 and the ledger agrees', async () => {
    const creator = await accountWithRole('creator', 'spender');
    await giveCredits(creator.id, 100);
    const results = await Promise.all(Array.from({ length: 50 }, () => spend(creator.token, 15)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(6);
    expect(statuses.filter((s) => s === 402)).toHaveLength(44);
    expect(results.find((r) => r.status === 402)!.body.error.code).toBe('INSUFFICIENT_CREDITS');
    const after = await credits(creator.token);
    expect(after).toMatchObject({ creditsRemaining: 10, creditsUsed: 90, low: true });
    const { rows, sum } = await ledgerSum(creator.id);
    expect(rows.filter((r) => r.credits === -15)).toHaveLength(6);
    expect(sum).toBe(10);
  });

  it('the same Idempotency-Key sent 5 times at once is charged once', async () => {
    const creator = await accountWithRole('creator', 'idem');
    await giveCredits(creator.id, 100);
    const results = await Promise.all(Array.from({ length: 5 }, () => spend(creator.token, 15, 'retry-key-0001')));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(results.every((r) => r.body.creditsRemaining === 85)).toBe(true);
    const again = await spend(creator.token, 15, 'retry-key-0001');
    expect(again.body.creditsRemaining).toBe(85);
    expect((await ledgerSum(creator.id)).sum).toBe(85);
  });

  it('the same Idempotency-Key with a different body is 409 and charges nothing', async () => {
    const creator = await accountWithRole('creator', 'idem-conflict');
    await giveCredits(creator.id, 100);
    expect((await spend(creator.token, 15, 'key-conflict-1')).status).toBe(200);
    const other = await spend(creator.token, 20, 'key-conflict-1');
    expect(other.status).toBe(409);
    expect((await credits(creator.token)).creditsRemaining).toBe(85);
  });

  it('answers the credits object with the last transaction', async () => {
    const creator = await accountWithRole('creator', 'last-tx');
    await giveCredits(creator.id, 40);
    const res = await spend(creator.token, 15);
    expect(res).toMatchObject({
      status: 200,
      body: { creditsRemaining: 25, creditsUsed: 15, monthlyAllocation: 50, planType: 'starter', low: false, lastTransaction: { actionType: 'landing_page_generation', credits: -15 } },
    });
  });

  it('is 402 for a creator without a credit account, and GET /api/me/credits is null', async () => {
    const creator = await accountWithRole('creator', 'no-account');
    expect((await spend(creator.token, 1)).status).toBe(402);
    expect(await api('GET', '/api/me/credits', { token: creator.token })).toEqual({ status: 200, body: null });
  });

  it('refuses a body carrying creditsRemaining or an unknown field', async () => {
    const creator = await accountWithRole('creator', 'strict');
    const res = await api('POST', '/api/credits/use', { token: creator.token, body: { creditsToUse: 1, actionType: 'x', creditsRemaining: 1000 } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('refuses an actionType that is not snake_case and an amount out of 1..1000', async () => {
    const creator = await accountWithRole('creator', 'bounds');
    for (const body of [{ creditsToUse: 1, actionType: 'Landing Page' }, { creditsToUse: 0, actionType: 'a' }, { creditsToUse: 1001, actionType: 'a' }, { creditsToUse: 1.5, actionType: 'a' }]) {
      expect((await api('POST', '/api/credits/use', { token: creator.token, body })).status).toBe(400);
    }
  });
});

describe('the monthly reset', () => {
  const due = { billingPeriodEnd: '2026-10-31T10:00:00.000Z', monthlyAllocation: 50 };
  const clockAt = (iso: string) => ({ now: () => new Date(iso) });

  it('run twice for the same month applies once', async () => {
    const creator = await accountWithRole('creator', 'reset-twice');
    await giveCredits(creator.id, 5, due);
    useLocalCloudEnv();
    const deps = { credits: dynamoCredits(), clock: clockAt('2026-11-01T00:00:00.000Z') };
    const account = (await deps.credits.getAccount(creator.id))!;
    const results = await Promise.all([resetAccount(deps, account), resetAccount(deps, account)]);
    expect(results.sort()).toEqual(['already', 'reset']);
    expect(await resetAccount(deps, account)).toBe('already');
    const after = (await deps.credits.getAccount(creator.id))!;
    expect(after).toMatchObject({ creditsRemaining: 50, creditsUsed: 0, billingPeriodEnd: '2026-11-30T10:00:00.000Z' });
    expect((await ledgerSum(creator.id)).sum).toBe(50);
  });

  it('keeps top-up credits above the allocation', async () => {
    const creator = await accountWithRole('creator', 'reset-keep');
    await giveCredits(creator.id, 120, due);
    useLocalCloudEnv();
    const deps = { credits: dynamoCredits(), clock: clockAt('2026-11-01T00:00:00.000Z') };
    expect(await resetAccount(deps, (await deps.credits.getAccount(creator.id))!)).toBe('reset');
    expect((await deps.credits.getAccount(creator.id))!.creditsRemaining).toBe(120);
  });

  it('racing spends never leave a balance below zero, and the ledger still sums to the balance', async () => {
    const creator = await accountWithRole('creator', 'reset-race');
    await giveCredits(creator.id, 30, due);
    useLocalCloudEnv();
    const deps = { credits: dynamoCredits(), clock: clockAt('2026-11-01T00:00:00.000Z') };
    const account = (await deps.credits.getAccount(creator.id))!;
    const [resetResult, ...spends] = await Promise.all([resetAccount(deps, account), ...Array.from({ length: 8 }, () => spend(creator.token, 15))]);
    expect(resetResult).toBe('reset');
    const after = (await deps.credits.getAccount(creator.id))!;
    expect(after.creditsRemaining).toBeGreaterThanOrEqual(0);
    const { sum } = await ledgerSum(creator.id);
    expect(sum).toBe(after.creditsRemaining);
    expect(spends.every((s) => s.status === 200 || s.status === 402)).toBe(true);
  });
});
