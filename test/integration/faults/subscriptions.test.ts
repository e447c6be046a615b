import { afterEach, describe, expect, it } from 'vitest';
import { dynamoCredits } from '#data/credits.ts';
import { accountWithRole, api, outputs, useLocalCloudEnv } from '../support.ts';
import { checkoutAndPay, expectCleanFailures, faults, injectedSince, post, recoveryMs, redeliverEvents, report, sleep } from './support.ts';

/**
 * Issue 16: 8 creators subscribe to Starter while Stripe fails 30% of the platform's calls and answers 10% too late and
 * the database fails calls and stalls; each checkout's caller retries with its Idempotency-Key, each creator pays on
 * the hosted page, the webhooks fail and are retried, then every platform event is delivered again (as Stripe keeps
 * retrying). After recovery: one subscription per creator, on its trial, the month's credits granted exactly once.
 */
afterEach(() => faults.recover());

const CREATORS = 8;

describe('subscribing while Stripe and the database fail', () => {
  it('makes one trial subscription per creator and grants its credits once, however often events arrive', async () => {
    const creators = await Promise.all(Array.from({ length: CREATORS }, (_, i) => accountWithRole('creator', `fault-subscriber-${i}`, { plan: 'none' })));
    useLocalCloudEnv();
    const origin = outputs().WebUrl;
    const before = await faults.state();
    await faults.set('stripe', { error: 0.3, slow: 0.1, slowMs: 10_000 });
    await faults.set('dynamodb', { error: 0.15 });
    const subscribe = async (creator: (typeof creators)[number], i: number) => {
      await sleep(i * 200);
      return checkoutAndPay(
        post('/api/billing/checkout', { planType: 'starter', successUrl: `${origin}/checkout/success`, cancelUrl: `${origin}/pricing` }, { authorization: `Bearer ${creator.token}`, 'idempotency-key': `fault-subscribe-${creator.id}` }),
      );
    };
    const running = Promise.all(creators.map(subscribe));
    await sleep(2_000);
    const returnedAt = await faults.outage('pause', 2_000);
    const settled = await running;
    const injected = await injectedSince(before);
    await faults.clear();
    expectCleanFailures(settled, 30_000);

    await redeliverEvents('platform', Math.floor(Date.now() / 1000) - 300);

    const state = (await (await fetch(`${outputs().StripeApiUrl}/_stand-in/state`)).json()) as { subscriptions: Record<string, { customer: string; status: string }>; customers: Record<string, { email: string }> };
    const effects = await Promise.all(
      creators.map(async (creator) => {
        const customers = Object.entries(state.customers).filter(([, c]) => c.email === creator.email).map(([id]) => id);
        const subscriptions = Object.values(state.subscriptions).filter((s) => customers.includes(s.customer)).length;
        const allocations = (await dynamoCredits().ledger(creator.id)).filter((row) => row.actionType === 'monthly_allocation').length;
        return { subscriptions, allocations, extra: Math.max(0, customers.length - 1) };
      }),
    );
    report({
      path: `subscriptions (${CREATORS} creators) and their webhooks`,
      injected,
      database: 'paused 2 s',
      lost: effects.reduce((n, e) => n + (e.subscriptions === 0 ? 1 : 0) + (e.allocations === 0 ? 1 : 0), 0),
      doubled: effects.reduce((n, e) => n + Math.max(0, e.subscriptions - 1) + Math.max(0, e.allocations - 1) + e.extra, 0),
      recoveryMs: recoveryMs(settled, returnedAt),
    });
    for (const creator of creators) {
      expect((await api('GET', '/api/me/subscription', { token: creator.token })).body).toMatchObject({ status: 'trialing', tier: 'starter', onTrial: true });
      const customers = Object.entries(state.customers).filter(([, c]) => c.email === creator.email).map(([id]) => id);
      expect(customers, `${creator.email}: one Stripe customer`).toHaveLength(1);
      expect(Object.values(state.subscriptions).filter((s) => s.customer === customers[0]), `${creator.email}: one subscription`).toHaveLength(1);
      const ledger = await dynamoCredits().ledger(creator.id);
      expect(ledger.filter((row) => row.actionType === 'monthly_allocation'), `${creator.email}: the month's credits once`).toHaveLength(1);
      expect((await api('GET', '/api/me/credits', { token: creator.token })).body).toMatchObject({ creditsRemaining: 50 });
    }
  }, 300_000);
});
