import { describe, expect, it } from 'vitest';
import { isLow } from '#contracts/credits.ts';
import { creditsView } from '#core/credits/credits.ts';
import { addMonths, nextPeriodEnd, periodKey } from '#core/credits/periods.ts';

describe('credit rules', () => {
  it('is low at or below the larger of 10 and 10% of the allocation', () => {
    expect(isLow(10, 50)).toBe(true);
    expect(isLow(11, 50)).toBe(false);
    expect(isLow(20, 200)).toBe(true);
    expect(isLow(21, 200)).toBe(false);
  });

  it('adds calendar months without overflowing short months', () => {
    expect(addMonths('2026-01-31T10:00:00.000Z', 1)).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonths('2028-01-31T10:00:00.000Z', 1)).toBe('2028-02-29T10:00:00.000Z');
    expect(addMonths('2026-11-15T00:00:00.000Z', 2)).toBe('2027-01-15T00:00:00.000Z');
  });

  it('catches up to the first period end after now', () => {
    expect(nextPeriodEnd('2026-08-10T00:00:00.000Z', new Date('2026-11-21T00:00:00.000Z'))).toBe('2026-12-10T00:00:00.000Z');
    expect(periodKey('2026-08-10T00:00:00.000Z')).toBe('2026-08');
  });

  it('shows the account with its last transaction', () => {
    const account = { userId: 'u', creditsRemaining: 5, creditsUsed: 45, monthlyAllocation: 50, planType: 'starter' as const, billingPeriodEnd: '2026-12-01T00:00:00.000Z' };
    expect(creditsView(account, { actionType: 'x', credits: -15, createdAt: 't', description: 'secret-ish' })).toEqual({
      creditsRemaining: 5, creditsUsed: 45, monthlyAllocation: 50, planType: 'starter', billingPeriodEnd: '2026-12-01T00:00:00.000Z', low: true,
      lastTransaction: { actionType: 'x', credits: -15, createdAt: 't' },
    });
  });
});

describe('resetting an account that keeps changing', () => {
  it('fails loudly instead of reporting the account as not due', async () => {
    const { resetAccount } = await import('#core/credits/credits.ts');
    const account = { userId: 'u', creditsRemaining: 5, creditsUsed: 0, monthlyAllocation: 50, planType: 'starter' as const, billingPeriodEnd: '2026-11-01T00:00:00.000Z' };
    const credits = { reset: async () => 'changed' as const, getAccount: async () => account } as unknown as Parameters<typeof resetAccount>[0]['credits'];
    await expect(resetAccount({ credits, clock: { now: () => new Date('2026-11-21T00:00:00.000Z') } }, account)).rejects.toThrow(/kept changing/);
  });
});
