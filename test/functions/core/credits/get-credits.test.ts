import { describe, expect, it } from 'vitest';
import { isLow } from '#contracts/credits.ts';
import { creditsView, getCredits } from '#core/credits/credits.ts';
import { creditAccount, memoryCredits } from '#test/functions/fakes/credits.ts';

describe('reading my credits', () => {
  it('is null for a user without a credit account (not subscribed yet)', async () => {
    expect(await getCredits({ credits: memoryCredits() }, 'u1')).toBeNull();
  });

  it('shows the account with its latest transaction, without the spender note', async () => {
    const credits = memoryCredits();
    credits.open(creditAccount({ creditsRemaining: 40 }));
    await credits.spend({ userId: 'u1', entry: { actionType: 'landing_page_generation', credits: -15, createdAt: '2026-11-21T12:00:00.000Z', description: 'my page' }, key: 'use:1', requestHash: 'h' });
    expect(await getCredits({ credits }, 'u1')).toEqual({
      creditsRemaining: 25, creditsUsed: 15, monthlyAllocation: 50, planType: 'starter', billingPeriodEnd: '2026-12-01T00:00:00.000Z', low: false,
      lastTransaction: { actionType: 'landing_page_generation', credits: -15, createdAt: '2026-11-21T12:00:00.000Z' },
      history: [
        { actionType: 'landing_page_generation', credits: -15, createdAt: '2026-11-21T12:00:00.000Z' },
        { actionType: 'test_grant', credits: 40, createdAt: '2026-11-01T00:00:00.000Z' },
      ],
    });
  });

  it('answers the ledger\'s newest lines as its history, newest first and at most ten, each naming its action', async () => {
    const credits = memoryCredits();
    credits.open(creditAccount({ creditsRemaining: 200 }));
    for (let i = 0; i < 12; i += 1) {
      await credits.spend({ userId: 'u1', entry: { actionType: i % 2 ? 'lesson_draft_generation' : 'quiz_from_lesson_generation', credits: -1, createdAt: `2026-11-21T12:00:${String(i).padStart(2, '0')}.000Z` }, key: `use:${i}`, requestHash: `h${i}` });
    }
    const answer = await getCredits({ credits }, 'u1');
    expect(answer?.history).toHaveLength(10);
    expect(answer?.history?.[0]).toEqual({ actionType: 'lesson_draft_generation', credits: -1, createdAt: '2026-11-21T12:00:11.000Z' });
    expect(answer?.history?.at(-1)?.createdAt).toBe('2026-11-21T12:00:02.000Z');
    expect(answer?.lastTransaction).toEqual(answer?.history?.[0]);
  });

  it('is low at or below the larger of 10 and 10% of the allocation', () => {
    expect([isLow(10, 50), isLow(11, 50), isLow(20, 200), isLow(21, 200)]).toEqual([true, false, true, false]);
    expect(creditsView(creditAccount({ creditsRemaining: 5 }), undefined)).toMatchObject({ low: true, lastTransaction: null });
  });
});
