import { afterEach, describe, expect, it } from 'vitest';
import { dynamoCredits } from '#data/credits.ts';
import { giveCredits } from '../billing-support.ts';
import { accountWithRole, api, useLocalCloudEnv } from '../support.ts';
import { expectCleanFailures, faults, injectedSince, post, recoveryMs, report, sleep, untilSettled } from './support.ts';

/**
 * Issue 16: credit spends (POST /api/credits/use with an Idempotency-Key) under load while the database fails 30% of
 * its calls and answers 10% too late, is paused, then killed and restarted; then it runs cleanly. Each spend's caller
 * retries with its key until it settles. After recovery: every spend charged exactly once, the ledger sums to the balance.
 */
afterEach(() => faults.recover());

const SPENDS = 40;
const START = 500;

describe('credit spends while the database fails', () => {
  it('charge every spend once, lose none, and answer 503 with Retry-After while degraded', async () => {
    const creator = await accountWithRole('creator', 'fault-credits');
    useLocalCloudEnv();
    await giveCredits(creator.id, START, { billingPeriodEnd: new Date(Date.now() + 20 * 86_400_000).toISOString(), monthlyAllocation: START });

    const before = await faults.state();
    await faults.set('dynamodb', { error: 0.3, slow: 0.1, slowMs: 4_000 });
    const spend = (key: string) =>
      untilSettled(post('/api/credits/use', { creditsToUse: 1, actionType: 'fault_test' }, { authorization: `Bearer ${creator.token}`, 'idempotency-key': key }));
    const running = Promise.all(Array.from({ length: SPENDS }, (_, i) => sleep(i * 150).then(() => spend(`fault-spend-${creator.id}-${i}`))));
    // Mid-run, the database stalls for 3 s, then dies and comes back.
    await sleep(1_500);
    await faults.outage('pause', 3_000);
    await sleep(1_500);
    const returnedAt = await faults.outage('kill', 500);
    // The database is back: its failures end here, and every spend still retrying settles against it. (Left on until
    // every spend settled, 30% errors and 10% late answers made the settling a lottery of the machine's speed: each
    // request needs several table calls, a loaded machine adds its own late ones, and a spend could run out of its
    // 40 attempts; the last spend starts 5.85 s in, well inside the faults, so each one meets them.)
    await faults.clear();
    const settled = await running;
    const injected = await injectedSince(before);

    expect(settled.map((s) => s.status), 'every spend settles once the database is back').toEqual(Array(SPENDS).fill(200));
    const { degraded } = expectCleanFailures(settled, 10_000);
    expect(degraded, 'the faults really reached the callers').toBeGreaterThan(0);

    const credits = (await api('GET', '/api/me/credits', { token: creator.token })).body as { creditsRemaining: number };
    expect(credits.creditsRemaining, 'each spend charged exactly once').toBe(START - SPENDS);
    const ledger = await dynamoCredits().ledger(creator.id);
    const charged = ledger.filter((row) => row.actionType === 'fault_test').length;
    report({ path: 'credit spends (40, with keys)', injected, database: 'paused 3 s, killed and restarted', lost: Math.max(0, SPENDS - charged), doubled: Math.max(0, charged - SPENDS), recoveryMs: recoveryMs(settled, returnedAt) });
    expect(charged).toBe(SPENDS);
    expect(ledger.reduce((sum, row) => sum + row.credits, 0), 'the ledger sums to the balance').toBe(credits.creditsRemaining);
  }, 180_000);
});
