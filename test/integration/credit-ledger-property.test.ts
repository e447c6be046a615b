import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resetAccount, useCredits } from '#core/credits/credits.ts';
import { InsufficientCreditsError } from '#core/errors.ts';
import { addMonths } from '#core/credits/periods.ts';
import { dynamoCredits } from '#data/credits.ts';
import { giveCredits } from './billing-support.ts';
import { accountWithRole, useLocalCloudEnv } from './support.ts';

type Op = { kind: 'top-up'; credits: number } | { kind: 'spend'; credits: number; concurrent: number } | { kind: 'reset' };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('top-up' as const), credits: fc.integer({ min: 1, max: 150 }) }),
  fc.record({ kind: fc.constant('spend' as const), credits: fc.integer({ min: 1, max: 60 }), concurrent: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant('reset' as const) }),
);

describe('the credit ledger (property, against DynamoDB Local)', () => {
  it('after any mix of top-ups, concurrent spends and resets: balance >= 0 and balance = sum of the ledger', async () => {
    const creator = await accountWithRole('creator', 'property');
    useLocalCloudEnv();
    const credits = dynamoCredits();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), fc.integer({ min: 0, max: 120 }), async (ops, start) => {
        // Each run gets its own user id in the same table (the ledger is per user).
        const userId = `${creator.id}-run-${++run}`;
        let periodEnd = '2026-01-31T12:00:00.000Z';
        await giveCredits(userId, start, { billingPeriodEnd: periodEnd, monthlyAllocation: 50 });
        let clockNow = new Date('2026-01-15T00:00:00.000Z');
        const deps = { credits, clock: { now: () => clockNow }, ids: { newId: () => `${Math.random()}`.slice(2) }, metrics: { record() {} } };
        for (const [i, o] of ops.entries()) {
          if (o.kind === 'top-up') {
            await credits.credit({ userId, entry: { actionType: 'credit_top_up', credits: o.credits, createdAt: clockNow.toISOString() }, key: `topup:${i}` });
          } else if (o.kind === 'spend') {
            await Promise.all(
              Array.from({ length: o.concurrent }, () =>
                useCredits(deps, { userId, body: { creditsToUse: o.credits, actionType: 'property_test' } }).catch((error) => {
                  if (!(error instanceof InsufficientCreditsError)) throw error;
                }),
              ),
            );
          } else {
            clockNow = new Date(Date.parse(periodEnd) + 1000);
            const account = (await credits.getAccount(userId))!;
            await Promise.all([resetAccount(deps, account), resetAccount(deps, account)]);
            periodEnd = addMonths(periodEnd, 1);
          }
          const account = (await credits.getAccount(userId))!;
          const ledger = await credits.ledger(userId);
          expect(account.creditsRemaining).toBeGreaterThanOrEqual(0);
          expect(ledger.reduce((sum, row) => sum + row.credits, 0)).toBe(account.creditsRemaining);
        }
      }),
      { numRuns: 25 },
    );
  }, 180_000);
});
