import { beforeAll, describe, expect, it } from 'vitest';
import type { CreditAccount, OpenCheckout, StoredSubscription } from '#core/ports.ts';
import { billingKeys, dynamoBilling, readPlan } from '#data/billing.ts';
import { dynamoCredits } from '#data/credits.ts';
import { counters, giveCredits } from '../billing-support.ts';
import { useLocalCloudEnv } from '../support.ts';
import { storedSubscription } from '#test/functions/fakes/billing.ts';
import { putRaw, rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const subscription = (userId: string, over: Partial<StoredSubscription> = {}): StoredSubscription =>
  storedSubscription({ userId, subscriptionId: `sub_${userId}`, customerId: `cus_${userId}`, ...over });

const event = (type = 'customer.subscription.updated') => ({ id: unique('evt'), type });

const claim = (claimId: string): Extract<OpenCheckout, { status: 'creating' }> => ({
  status: 'creating',
  claimId,
  intent: '["starter"]',
  idempotencyKey: 'key-1',
  claimedAt: '2026-11-21T12:00:00.000Z',
});

const opened = (claimId: string, sessionId: string): Extract<OpenCheckout, { status: 'open' }> => ({
  ...claim(claimId),
  status: 'open',
  sessionId,
  url: `https://checkout.example/${sessionId}`,
  expiresAt: '2026-11-21T12:30:00.000Z',
});

describe('customers (DynamoDB Local)', () => {
  it('links a user and a customer both ways, once', async () => {
    const billing = dynamoBilling();
    const userId = unique('cust');
    expect(await billing.getCustomerId(userId)).toBeUndefined();
    await billing.saveCustomer(userId, `cus_${userId}`);
    await billing.saveCustomer(userId, `cus_${userId}`);
    expect(await billing.getCustomerId(userId)).toBe(`cus_${userId}`);
    expect(await billing.getUserIdByCustomer(`cus_${userId}`)).toBe(userId);
    expect(await billing.getUserIdByCustomer(unique('cus'))).toBeUndefined();
  });

  it('keeps the first customer when a second is saved for the same user', async () => {
    const billing = dynamoBilling();
    const userId = unique('cust');
    await billing.saveCustomer(userId, 'cus_first');
    await billing.saveCustomer(userId, 'cus_second');
    expect(await billing.getCustomerId(userId)).toBe('cus_first');
  });
});

describe('subscription events (DynamoDB Local)', () => {
  it('applies a first event: the subscription, its state index, the counters and the opening credits in one write', async () => {
    const billing = dynamoBilling();
    const userId = unique('sub');
    const after = subscription(userId);
    const account: CreditAccount = { userId, creditsRemaining: 50, creditsUsed: 0, monthlyAllocation: 50, planType: 'starter', billingPeriodEnd: '2026-12-05T12:00:00.000Z' };
    const bucket = unique('subs').replaceAll('-', '_');
    const before = await counters();
    expect(
      await billing.applySubscriptionEvent({
        event: event('customer.subscription.created'),
        before: undefined,
        after,
        counters: { [bucket]: 1 },
        creditGrant: { account, entry: { actionType: 'monthly_allocation', credits: 50, createdAt: '2026-11-21T12:00:00.000Z' }, key: `grant:${after.subscriptionId}` },
      }),
    ).toBe('applied');
    expect(await billing.getSubscription(userId)).toEqual(after);
    expect(await rawItem(billingKeys.subscription(userId))).toMatchObject({ gsi1pk: 'SUBSTATE#trialing', gsi1sk: `${after.updatedAt}#${userId}` });
    expect((await counters())[bucket]).toBe((before[bucket] ?? 0) + 1);
    expect(await dynamoCredits().getAccount(userId)).toEqual(account);
    expect(await dynamoCredits().ledger(userId)).toEqual([{ actionType: 'monthly_allocation', credits: 50, createdAt: '2026-11-21T12:00:00.000Z' }]);
  });

  it('answers duplicate for an event already applied, and changed when the stored subscription moved', async () => {
    const billing = dynamoBilling();
    const userId = unique('sub');
    const first = event();
    const stored = subscription(userId);
    await billing.applySubscriptionEvent({ event: first, before: undefined, after: stored, counters: {} });
    expect(await billing.applySubscriptionEvent({ event: first, before: stored, after: { ...stored, status: 'active' }, counters: {} })).toBe('duplicate');
    expect(await billing.applySubscriptionEvent({ event: event(), before: undefined, after: { ...stored, status: 'active' }, counters: {} })).toBe('changed');
    const stale = { ...stored, lastEventAt: 999 };
    expect(await billing.applySubscriptionEvent({ event: event(), before: stale, after: { ...stored, status: 'active', lastEventAt: 2000 }, counters: {} })).toBe('changed');
    expect(await billing.getSubscription(userId)).toEqual(stored);
  });

  it('moves from exactly what was read, and re-plans an existing credit account', async () => {
    const billing = dynamoBilling();
    const userId = unique('sub');
    await giveCredits(userId, 30);
    const stored = subscription(userId, { status: 'active' });
    await billing.applySubscriptionEvent({ event: event(), before: undefined, after: stored, counters: {} });
    const upgraded = { ...stored, tier: 'pro' as const, lastEventAt: 2000 };
    expect(await billing.applySubscriptionEvent({ event: event(), before: stored, after: upgraded, counters: {}, creditPlan: { planType: 'pro', monthlyAllocation: 200 } })).toBe('applied');
    expect(await billing.getSubscription(userId)).toEqual(upgraded);
    expect(await dynamoCredits().getAccount(userId)).toMatchObject({ creditsRemaining: 30, planType: 'pro', monthlyAllocation: 200 });
  });

  it('answers changed, writing nothing, when the credits to open are already there or the account to re-plan is gone', async () => {
    const billing = dynamoBilling();
    const withAccount = unique('sub');
    await giveCredits(withAccount, 30);
    const grant = {
      account: { userId: withAccount, creditsRemaining: 50, creditsUsed: 0, monthlyAllocation: 50, planType: 'starter' as const, billingPeriodEnd: '2026-12-05T12:00:00.000Z' },
      entry: { actionType: 'monthly_allocation', credits: 50, createdAt: '2026-11-21T12:00:00.000Z' },
      key: 'grant:sub_x',
    };
    expect(await billing.applySubscriptionEvent({ event: event(), before: undefined, after: subscription(withAccount), counters: {}, creditGrant: grant })).toBe('changed');
    expect(await billing.getSubscription(withAccount)).toBeUndefined();
    expect((await dynamoCredits().getAccount(withAccount))?.creditsRemaining).toBe(30);

    const without = unique('sub');
    expect(await billing.applySubscriptionEvent({ event: event(), before: undefined, after: subscription(without), counters: {}, creditPlan: { planType: 'pro', monthlyAllocation: 200 } })).toBe('changed');
    expect(await billing.getSubscription(without)).toBeUndefined();
  });

  it('reads a subscription stored before the one-trial rule as trialed when it ever reached a plan', async () => {
    const billing = dynamoBilling();
    const legacy = async (status: string) => {
      const userId = unique('legacy');
      const { hasSubscribed: _dropped, ...fields } = subscription(userId, { status });
      await putRaw({ ...billingKeys.subscription(userId), type: 'Subscription', ...fields });
      return (await billing.getSubscription(userId))?.hasSubscribed;
    };
    expect(await legacy('active')).toBe(true);
    expect(await legacy('trialing')).toBe(true);
    expect(await legacy('past_due')).toBe(true);
    expect(await legacy('canceled')).toBe(true);
    expect(await legacy('incomplete')).toBe(false);
    expect(await legacy('incomplete_expired')).toBe(false);
  });

  it('counts a legacy unpaid or paused subscription as trialed too (both follow a trial or a payment)', async () => {
    const billing = dynamoBilling();
    for (const status of ['unpaid', 'paused']) {
      const userId = unique('legacy');
      const { hasSubscribed: _dropped, ...fields } = subscription(userId, { status });
      await putRaw({ ...billingKeys.subscription(userId), type: 'Subscription', ...fields });
      expect({ status, hasSubscribed: (await billing.getSubscription(userId))?.hasSubscribed }).toEqual({ status, hasSubscribed: true });
    }
  });
});

describe('the checkout slot (DynamoDB Local)', () => {
  it('is claimed once: a second claim is refused until the first is replaced by its own id', async () => {
    const billing = dynamoBilling();
    const userId = unique('slot');
    expect(await billing.getOpenCheckout(userId)).toBeUndefined();
    expect(await billing.claimCheckout({ userId, claim: claim('c1') })).toBe('claimed');
    expect(await billing.getOpenCheckout(userId)).toEqual(claim('c1'));
    expect(await billing.claimCheckout({ userId, claim: claim('c2') })).toBe('taken');
    expect(await billing.claimCheckout({ userId, claim: claim('c2'), replacing: 'c0' })).toBe('taken');
    expect(await billing.claimCheckout({ userId, claim: claim('c2'), replacing: 'c1' })).toBe('claimed');
    expect(await billing.getOpenCheckout(userId)).toMatchObject({ claimId: 'c2' });
  });

  it('refuses to replace a slot that is empty (it was released meanwhile)', async () => {
    const billing = dynamoBilling();
    expect(await billing.claimCheckout({ userId: unique('slot'), claim: claim('c2'), replacing: 'c1' })).toBe('taken');
  });

  it('gives exactly one of several concurrent claims the slot', async () => {
    const billing = dynamoBilling();
    const userId = unique('slot');
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => billing.claimCheckout({ userId, claim: claim(`c${i}`) })));
    expect(results.filter((r) => r === 'claimed')).toHaveLength(1);
    expect(results.filter((r) => r === 'taken')).toHaveLength(5);
  });

  it('opens the session only while the claim is still ours', async () => {
    const billing = dynamoBilling();
    const userId = unique('slot');
    await billing.claimCheckout({ userId, claim: claim('c1') });
    expect(await billing.openCheckout({ userId, checkout: opened('c1', 'cs_1') })).toBe('opened');
    expect(await billing.getOpenCheckout(userId)).toEqual(opened('c1', 'cs_1'));
    await billing.claimCheckout({ userId, claim: claim('c2'), replacing: 'c1' });
    expect(await billing.openCheckout({ userId, checkout: opened('c1', 'cs_late') })).toBe('lost');
    expect(await billing.getOpenCheckout(userId)).toMatchObject({ status: 'creating', claimId: 'c2' });
    expect(await billing.openCheckout({ userId: unique('slot'), checkout: opened('c1', 'cs_1') })).toBe('lost');
  });

  it("is released only by its own claim or its own session, never another checkout's", async () => {
    const billing = dynamoBilling();
    const userId = unique('slot');
    await billing.claimCheckout({ userId, claim: claim('c1') });
    await billing.releaseCheckout({ userId, claimId: 'c0' });
    expect(await billing.getOpenCheckout(userId)).toBeDefined();
    await billing.releaseCheckout({ userId, claimId: 'c1' });
    expect(await billing.getOpenCheckout(userId)).toBeUndefined();

    await billing.claimCheckout({ userId, claim: claim('c2') });
    await billing.openCheckout({ userId, checkout: opened('c2', 'cs_2') });
    await billing.releaseCheckout({ userId, sessionId: 'cs_1' });
    expect(await billing.getOpenCheckout(userId)).toMatchObject({ sessionId: 'cs_2' });
    await billing.releaseCheckout({ userId, sessionId: 'cs_2' });
    expect(await billing.getOpenCheckout(userId)).toBeUndefined();
    await expect(billing.releaseCheckout({ userId, sessionId: 'cs_2' })).resolves.toBeUndefined();
  });
});

describe('credit purchases (DynamoDB Local)', () => {
  const pending = async (userId: string) => {
    const sessionId = unique('cs');
    await dynamoBilling().savePendingPurchase({ sessionId, userId, credits: 100, pricePence: 500, createdAt: '2026-11-21T12:00:00.000Z' });
    return sessionId;
  };
  const topUp = (userId: string, sessionId: string, type = 'checkout.session.completed') => ({
    event: event(type),
    sessionId,
    userId,
    entry: { actionType: 'credit_top_up', credits: 100, createdAt: '2026-11-21T12:00:00.000Z' },
    key: `purchase:${sessionId}`,
  });

  it('records a purchase once: a retried intent keeps the first record', async () => {
    const billing = dynamoBilling();
    const userId = unique('buyer');
    const sessionId = await pending(userId);
    await billing.savePendingPurchase({ sessionId, userId: 'someone-else', credits: 5, pricePence: 1, createdAt: '2026-11-22T00:00:00.000Z' });
    expect(await billing.getPendingPurchase(sessionId)).toEqual({ userId, credits: 100, status: 'pending' });
    expect(await billing.getPendingPurchase(unique('cs'))).toBeUndefined();
  });

  it('grants a purchase once, whatever event delivers it again', async () => {
    const billing = dynamoBilling();
    const userId = unique('buyer');
    await giveCredits(userId, 20);
    const sessionId = await pending(userId);
    const grant = topUp(userId, sessionId);
    expect(await billing.grantPurchase(grant)).toBe('applied');
    expect(await billing.grantPurchase(grant)).toBe('duplicate');
    expect(await billing.grantPurchase(topUp(userId, sessionId, 'checkout.session.async_payment_succeeded'))).toBe('duplicate');
    expect(await billing.getPendingPurchase(sessionId)).toMatchObject({ status: 'granted' });
    expect(await dynamoCredits().getAccount(userId)).toMatchObject({ creditsRemaining: 120 });
    expect(await billing.eventSeen(grant.event.id)).toBe(true);
  });

  it('answers no-account for a buyer without one, and opens the account holding the purchase when asked', async () => {
    const billing = dynamoBilling();
    const userId = unique('buyer');
    const sessionId = await pending(userId);
    expect(await billing.grantPurchase(topUp(userId, sessionId))).toBe('no-account');
    expect(await billing.getPendingPurchase(sessionId)).toMatchObject({ status: 'pending' });
    const openAccount: CreditAccount = { userId, creditsRemaining: 100, creditsUsed: 0, monthlyAllocation: 0, planType: 'starter', billingPeriodEnd: '2026-12-21T12:00:00.000Z' };
    expect(await billing.grantPurchase({ ...topUp(userId, sessionId), openAccount })).toBe('applied');
    expect(await dynamoCredits().getAccount(userId)).toEqual(openAccount);
    expect(await dynamoCredits().ledger(userId)).toEqual([{ actionType: 'credit_top_up', credits: 100, createdAt: '2026-11-21T12:00:00.000Z' }]);
  });

  it('answers no-account when asked to open an account that exists', async () => {
    const billing = dynamoBilling();
    const userId = unique('buyer');
    await giveCredits(userId, 20);
    const sessionId = await pending(userId);
    const openAccount: CreditAccount = { userId, creditsRemaining: 100, creditsUsed: 0, monthlyAllocation: 0, planType: 'starter', billingPeriodEnd: '2026-12-21T12:00:00.000Z' };
    expect(await billing.grantPurchase({ ...topUp(userId, sessionId), openAccount })).toBe('no-account');
    expect(await dynamoCredits().getAccount(userId)).toMatchObject({ creditsRemaining: 20 });
  });

  it('fails a purchase once, and never grants it after', async () => {
    const billing = dynamoBilling();
    const userId = unique('buyer');
    await giveCredits(userId, 20);
    const sessionId = await pending(userId);
    const failed = { event: event('checkout.session.async_payment_failed'), sessionId };
    expect(await billing.failPurchase(failed)).toBe('applied');
    expect(await billing.failPurchase(failed)).toBe('duplicate');
    expect(await billing.failPurchase({ event: event('checkout.session.async_payment_failed'), sessionId })).toBe('duplicate');
    expect(await billing.getPendingPurchase(sessionId)).toMatchObject({ status: 'failed' });
    expect(await billing.grantPurchase(topUp(userId, sessionId, 'checkout.session.async_payment_succeeded'))).toBe('duplicate');
    expect(await dynamoCredits().getAccount(userId)).toMatchObject({ creditsRemaining: 20 });
  });
});

describe('processed events (DynamoDB Local)', () => {
  it('records an event once and expires the record after 30 days', async () => {
    const billing = dynamoBilling();
    const evt = event('invoice.paid');
    expect(await billing.eventSeen(evt.id)).toBe(false);
    expect(await billing.recordEvent(evt)).toBe('applied');
    expect(await billing.eventSeen(evt.id)).toBe(true);
    expect(await billing.recordEvent(evt)).toBe('duplicate');
    const item = await rawItem(billingKeys.event(evt.id));
    expect(item).toMatchObject({ type: 'StripeEvent', eventType: 'invoice.paid' });
    expect((item!['expiresAt'] as number) - Math.floor(Date.now() / 1000)).toBeGreaterThan(29 * 86_400);
  });
});

describe("a user's plan (issue 29: the middleware's read, DynamoDB Local)", () => {
  it('reads the plan from the stored subscription: none without one, a trial as Starter, past due keeps its tier, canceled none', async () => {
    expect(await readPlan(unique('nobody'))).toBe('none');
    const planWith = async (over: Partial<StoredSubscription>) => {
      const userId = unique('plan');
      await putRaw({ ...billingKeys.subscription(userId), type: 'Subscription', ...subscription(userId, over) });
      return readPlan(userId);
    };
    expect(await planWith({ status: 'trialing', tier: 'pro' })).toBe('starter');
    expect(await planWith({ status: 'active', tier: 'pro' })).toBe('pro');
    expect(await planWith({ status: 'active', tier: 'starter' })).toBe('starter');
    expect(await planWith({ status: 'past_due', tier: 'pro' })).toBe('pro');
    expect(await planWith({ status: 'canceled', tier: 'pro' })).toBe('none');
  });
});
