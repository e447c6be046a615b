import { describe, expect, it } from 'vitest';
import { useCredits } from '#core/credits/credits.ts';
import { ConflictError, InsufficientCreditsError } from '#core/errors.ts';
import { testClock, sequentialIds } from '#test/functions/fakes/clock.ts';
import { creditAccount, memoryCredits } from '#test/functions/fakes/credits.ts';
import { memoryMetrics } from '#test/functions/fakes/metrics.ts';

const setup = (balance?: number) => {
  const credits = memoryCredits();
  if (balance !== undefined) credits.open(creditAccount({ creditsRemaining: balance }));
  return { credits, clock: testClock(), ids: sequentialIds(), metrics: memoryMetrics() };
};
const body = { creditsToUse: 15, actionType: 'landing_page_generation' };

describe('spending AI credits', () => {
  it('debits the balance, writes the ledger row and answers with the account as the spend left it', async () => {
    const d = setup(100);
    expect(await useCredits(d, { userId: 'u1', body: { ...body, description: 'Spring course page' } })).toEqual({
      creditsRemaining: 85, creditsUsed: 15, monthlyAllocation: 50, planType: 'starter', billingPeriodEnd: '2026-12-01T00:00:00.000Z', low: false,
      lastTransaction: { actionType: 'landing_page_generation', credits: -15, createdAt: '2026-11-21T12:00:00.000Z' },
    });
    expect((await d.credits.ledger('u1')).at(-1)).toEqual({ actionType: 'landing_page_generation', credits: -15, createdAt: '2026-11-21T12:00:00.000Z', description: 'Spring course page' });
    expect(d.credits.calls('getAccount')).toBe(0);
  });

  it('charges a retried request with the same Idempotency-Key once, answering with the original spend', async () => {
    const d = setup(100);
    const first = await useCredits(d, { userId: 'u1', body, idempotencyKey: 'k1' });
    d.clock.advance(5_000);
    const retry = await useCredits(d, { userId: 'u1', body, idempotencyKey: 'k1' });
    expect(retry).toEqual(first);
    expect(retry.creditsRemaining).toBe(85);
    expect((await d.credits.ledger('u1')).filter((row) => row.credits < 0)).toHaveLength(1);
  });

  it('counts a spend in the metrics only when it is charged', async () => {
    const d = setup(20);
    await useCredits(d, { userId: 'u1', body, idempotencyKey: 'k1' });
    await useCredits(d, { userId: 'u1', body, idempotencyKey: 'k1' });
    await expect(useCredits(d, { userId: 'u1', body })).rejects.toThrow(InsufficientCreditsError);
    expect(d.metrics.recorded).toEqual([{ metric: 'CreditsSpent', value: 15 }]);
  });

  it('refuses an Idempotency-Key reused for a different request (409), charging nothing', async () => {
    const d = setup(100);
    await useCredits(d, { userId: 'u1', body, idempotencyKey: 'k1' });
    await expect(useCredits(d, { userId: 'u1', body: { ...body, creditsToUse: 30 }, idempotencyKey: 'k1' })).rejects.toThrow(ConflictError);
    await expect(useCredits(d, { userId: 'u1', body: { ...body, description: 'other' }, idempotencyKey: 'k1' })).rejects.toThrow(ConflictError);
    expect((await d.credits.getAccount('u1'))?.creditsRemaining).toBe(85);
  });

  it('never overdraws: 402 with the balance in the message, nothing debited', async () => {
    const d = setup(10);
    await expect(useCredits(d, { userId: 'u1', body })).rejects.toThrow(new InsufficientCreditsError('You need 15 AI credits for this and have 10. Please top up your credits.'));
    expect(await d.credits.getAccount('u1')).toMatchObject({ creditsRemaining: 10, creditsUsed: 0 });
    expect(await d.credits.ledger('u1')).toHaveLength(1);
  });

  it('lets concurrent spends take exactly what the balance covers', async () => {
    const d = setup(100);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => useCredits(d, { userId: 'u1', body })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(6);
    expect(results.filter((r) => r.status === 'rejected').every((r) => r.reason instanceof InsufficientCreditsError)).toBe(true);
    expect(await d.credits.getAccount('u1')).toMatchObject({ creditsRemaining: 10, creditsUsed: 90 });
  });

  it('is 402 with a balance of 0 for a user without a credit account', async () => {
    const d = setup();
    await expect(useCredits(d, { userId: 'u1', body })).rejects.toThrow('You need 15 AI credits for this and have 0. Please top up your credits.');
  });
});
