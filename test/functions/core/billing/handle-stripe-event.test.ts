import { describe, expect, it } from 'vitest';
import { applyStripeWebhook, handleStripeEvent } from '#core/billing/handle-stripe-event.ts';
import { BadSignatureError } from '#core/errors.ts';
import type { BillingCheckout, BillingEvent, BillingSubscription } from '#core/billing/ports.ts';
import { storedSubscription } from '#test/functions/fakes/billing.ts';
import { creditAccount } from '#test/functions/fakes/credits.ts';
import { type FakeDeps, fakeDeps } from '#test/functions/fakes/deps.ts';

let seq = 0;
const PERIOD_END = '2026-12-05T12:00:00.000Z';

const subscriptionEvent = (
  created: number,
  sub: Partial<BillingSubscription> = {},
  type = 'customer.subscription.updated',
): Extract<BillingEvent, { kind: 'subscription' }> => ({
  id: `evt_${++seq}`,
  created,
  type,
  kind: 'subscription',
  subscription: {
    id: 'sub_1',
    customerId: 'cus_1',
    status: 'trialing',
    priceId: 'price_starter',
    trialEnd: PERIOD_END,
    currentPeriodEnd: PERIOD_END,
    cancelAtPeriodEnd: false,
    ...sub,
  },
});

const checkoutEvent = (type: string, checkout: Partial<BillingCheckout> = {}): BillingEvent => ({
  id: `evt_${++seq}`,
  created: 2000,
  type,
  kind: 'checkout',
  checkout: { sessionId: 'cs_1', mode: 'payment', customerId: 'cus_1', paymentStatus: 'paid', ...checkout },
});

const otherEvent = (type: string): BillingEvent => ({ id: `evt_${++seq}`, created: 2000, type, kind: 'other' });

/** A creator with a Stripe customer (what their first checkout recorded). */
const setup = async () => {
  const d = fakeDeps();
  await d.billing.saveCustomer('u1', 'cus_1');
  return d;
};

/** A top-up of 100 credits the creator started (checkout session cs_1), not paid yet. */
const withPendingTopUp = async (d: FakeDeps) =>
  d.billing.savePendingPurchase({ sessionId: 'cs_1', userId: 'u1', credits: 100, pricePence: 500, createdAt: '2026-11-21T11:00:00.000Z' });

describe('a subscription event', () => {
  it('stores a first trial, counts it, opens the Starter credits and counts the state change', async () => {
    const d = await setup();
    expect(await handleStripeEvent(d, subscriptionEvent(1000, {}, 'customer.subscription.created'))).toBe('applied');
    expect(await d.billing.getSubscription('u1')).toEqual({
      userId: 'u1', subscriptionId: 'sub_1', customerId: 'cus_1', status: 'trialing', tier: 'starter', trialEnd: PERIOD_END, currentPeriodEnd: PERIOD_END,
      cancelAtPeriodEnd: false, lastEventAt: 1000, lastEventRank: 1, updatedAt: '2026-11-21T12:00:00.000Z', hasSubscribed: true,
    });
    expect(d.billing.counters).toEqual({ subs_trialing: 1, subs_tier_starter: 1 });
    expect(await d.credits.getAccount('u1')).toEqual(creditAccount({ creditsRemaining: 50, monthlyAllocation: 50, billingPeriodEnd: PERIOD_END }));
    expect(await d.credits.ledger('u1')).toEqual([{ actionType: 'monthly_allocation', credits: 50, createdAt: '2026-11-21T12:00:00.000Z' }]);
    expect(d.metrics.recorded).toEqual([{ metric: 'SubscriptionStateChanged', value: 1 }]);
  });

  it("queues the trial-ending reminder with Stripe's trial_will_end, once however often it is delivered", async () => {
    const d = await setup();
    expect(await handleStripeEvent(d, subscriptionEvent(1000, {}, 'customer.subscription.created'))).toBe('applied');
    expect(d.billing.outbox).toEqual([]);
    const willEnd = subscriptionEvent(1100, {}, 'customer.subscription.trial_will_end');
    expect(await handleStripeEvent(d, willEnd)).toBe('applied');
    expect(await handleStripeEvent(d, willEnd)).toBe('duplicate');
    expect(d.billing.outbox).toEqual([{ automation: 'trial-ending', userId: 'u1', email: 'creator@example.com', at: '2026-11-21T12:00:00.000Z' }]);
  });

  it('applies once: a redelivery is a duplicate and changes nothing', async () => {
    const d = await setup();
    const event = subscriptionEvent(1000);
    await handleStripeEvent(d, event);
    expect(await handleStripeEvent(d, event)).toBe('duplicate');
    expect(d.billing.counters).toEqual({ subs_trialing: 1, subs_tier_starter: 1 });
    expect(await d.credits.ledger('u1')).toHaveLength(1);
    expect(d.metrics.total('SubscriptionStateChanged')).toBe(1);
  });

  it('records the event of a customer we do not know, so that its redelivery is recognised', async () => {
    const d = await setup();
    const event = subscriptionEvent(1000, { customerId: 'cus_stranger' });
    expect(await handleStripeEvent(d, event)).toBe('unknown-customer');
    expect(await handleStripeEvent(d, event)).toBe('duplicate');
    expect(d.billing.counters).toEqual({});
  });

  it("writes nothing back for a creator whose account is being deleted, even when the customer's mapping was still read: the event is recorded once", async () => {
    const d = await setup();
    d.deleting.add('u1');
    for (const type of ['customer.subscription.created', 'customer.subscription.updated', 'customer.subscription.deleted', 'customer.subscription.trial_will_end']) {
      const event = subscriptionEvent(1000, { status: type.endsWith('deleted') ? 'canceled' : 'trialing' }, type);
      expect(await handleStripeEvent(d, event)).toBe('account-deleted');
      expect(await handleStripeEvent(d, event)).toBe('duplicate');
    }
    expect(await d.billing.getSubscription('u1')).toBeUndefined();
    expect(await d.credits.getAccount('u1')).toBeUndefined();
    expect(d.billing.counters).toEqual({});
  });

  it('ignores an event older than the last one applied, recording it', async () => {
    const d = await setup();
    await handleStripeEvent(d, subscriptionEvent(2000, { status: 'active', trialEnd: null }));
    const late = subscriptionEvent(1000, { status: 'trialing' });
    expect(await handleStripeEvent(d, late)).toBe('stale');
    expect(await d.billing.getSubscription('u1')).toMatchObject({ status: 'active', lastEventAt: 2000 });
    expect(d.billing.events.has(late.id)).toBe(true);
  });

  it('ends in the same state whatever the order of two events of the same second', async () => {
    const d = await setup();
    await handleStripeEvent(d, subscriptionEvent(1000, { status: 'canceled' }, 'customer.subscription.deleted'));
    expect(await handleStripeEvent(d, subscriptionEvent(1000, { status: 'active' }))).toBe('stale');
    expect(await d.billing.getSubscription('u1')).toMatchObject({ status: 'canceled' });
  });

  it('does not let an old subscription ending end the one that replaced it', async () => {
    const d = await setup();
    d.billing.seedSubscription(storedSubscription({ subscriptionId: 'sub_2', status: 'active', lastEventAt: 3000, lastEventRank: 2 }));
    expect(await handleStripeEvent(d, subscriptionEvent(4000, { id: 'sub_1', status: 'canceled' }, 'customer.subscription.deleted'))).toBe('stale');
    expect(await d.billing.getSubscription('u1')).toMatchObject({ subscriptionId: 'sub_2', status: 'active' });
  });

  it('lets a new subscription started in the same second as the old one ended take over', async () => {
    const d = await setup();
    await handleStripeEvent(d, subscriptionEvent(1000, { status: 'active', trialEnd: null }, 'customer.subscription.created'));
    await handleStripeEvent(d, subscriptionEvent(2000, { status: 'canceled' }, 'customer.subscription.deleted'));
    expect(await handleStripeEvent(d, subscriptionEvent(2000, { id: 'sub_2', status: 'active', trialEnd: null }, 'customer.subscription.created'))).toBe('applied');
    expect(await d.billing.getSubscription('u1')).toMatchObject({ subscriptionId: 'sub_2', status: 'active' });
  });

  it('gives a resubscribing creator no second allocation: cancel then resubscribe leaves the credits as they were', async () => {
    const d = await setup();
    await handleStripeEvent(d, subscriptionEvent(1000, {}, 'customer.subscription.created'));
    await d.credits.spend({ userId: 'u1', entry: { actionType: 'landing_page_generation', credits: -15, createdAt: '2026-11-21T12:00:00.000Z' }, key: 'use:1', requestHash: 'h' });
    await handleStripeEvent(d, subscriptionEvent(2000, { status: 'canceled' }, 'customer.subscription.deleted'));
    expect(await d.credits.getAccount('u1')).toMatchObject({ creditsRemaining: 35, monthlyAllocation: 0 });

    expect(await handleStripeEvent(d, subscriptionEvent(3000, { id: 'sub_2', status: 'active', trialEnd: null }, 'customer.subscription.created'))).toBe('applied');
    expect(await d.credits.getAccount('u1')).toMatchObject({ creditsRemaining: 35, monthlyAllocation: 50, planType: 'starter' });
    expect((await d.credits.ledger('u1')).filter((row) => row.actionType === 'monthly_allocation')).toHaveLength(1);
    expect(await d.billing.getSubscription('u1')).toMatchObject({ subscriptionId: 'sub_2', status: 'active', hasSubscribed: true });
    expect(d.billing.counters).toEqual({ subs_trialing: 0, subs_tier_starter: 1, subs_canceled: 0, subs_active: 1, subs_paying_starter: 1 });
  });

  it('moves the credit account to the Pro allocation on an upgrade, keeping the balance', async () => {
    const d = await setup();
    await handleStripeEvent(d, subscriptionEvent(1000, { status: 'active', trialEnd: null }));
    await handleStripeEvent(d, subscriptionEvent(2000, { status: 'active', trialEnd: null, priceId: 'price_pro' }));
    expect(await d.credits.getAccount('u1')).toMatchObject({ creditsRemaining: 50, monthlyAllocation: 200, planType: 'pro' });
    expect(await d.billing.getSubscription('u1')).toMatchObject({ tier: 'pro' });
    expect(d.billing.counters).toMatchObject({ subs_tier_starter: 0, subs_tier_pro: 1 });
  });

  it("keeps a subscription's tier when an update carries a price we do not sell", async () => {
    const d = await setup();
    await handleStripeEvent(d, subscriptionEvent(1000, { status: 'active', priceId: 'price_pro' }));
    await handleStripeEvent(d, subscriptionEvent(2000, { status: 'active', priceId: 'price_legacy' }));
    expect(await d.billing.getSubscription('u1')).toMatchObject({ tier: 'pro' });
  });

  it('opens the credits for a month from now when the provider names no period end', async () => {
    const d = await setup();
    await handleStripeEvent(d, subscriptionEvent(1000, { status: 'active', currentPeriodEnd: null }));
    expect(await d.credits.getAccount('u1')).toMatchObject({ creditsRemaining: 50, billingPeriodEnd: '2026-12-21T12:00:00.000Z' });
  });

  it('opens no credits for a subscription on a price we do not sell', async () => {
    const d = await setup();
    expect(await handleStripeEvent(d, subscriptionEvent(1000, { status: 'active', priceId: 'price_legacy' }))).toBe('applied');
    expect(await d.billing.getSubscription('u1')).toMatchObject({ tier: null });
    expect(await d.credits.getAccount('u1')).toBeUndefined();
  });

  it('opens no credits and leaves the trial available while the first payment is incomplete', async () => {
    const d = await setup();
    await handleStripeEvent(d, subscriptionEvent(1000, { status: 'incomplete', trialEnd: null }, 'customer.subscription.created'));
    expect(await d.credits.getAccount('u1')).toBeUndefined();
    expect(await d.billing.getSubscription('u1')).toMatchObject({ status: 'incomplete', hasSubscribed: false });
  });

  it('counts a state change only when the status moved', async () => {
    const d = await setup();
    await handleStripeEvent(d, subscriptionEvent(1000, { status: 'active' }));
    expect(await handleStripeEvent(d, subscriptionEvent(2000, { status: 'active', cancelAtPeriodEnd: true }))).toBe('applied');
    expect(await d.billing.getSubscription('u1')).toMatchObject({ cancelAtPeriodEnd: true });
    expect(d.metrics.total('SubscriptionStateChanged')).toBe(1);
  });

  it('re-reads when a newer event landed meanwhile, and then finds its own stale', async () => {
    const d = await setup();
    const newer = subscriptionEvent(2000, { status: 'active' });
    d.billing.before('applySubscriptionEvent', (call) => (call === 1 ? handleStripeEvent(d, newer) : undefined));
    expect(await handleStripeEvent(d, subscriptionEvent(1000, { status: 'trialing' }))).toBe('stale');
    expect(await d.billing.getSubscription('u1')).toMatchObject({ status: 'active', lastEventAt: 2000 });
    expect(await d.credits.ledger('u1')).toHaveLength(1);
  });

  it('never grants the allocation over a credit account opened meanwhile', async () => {
    const d = await setup();
    d.billing.before('applySubscriptionEvent', (call) => (call === 1 ? d.credits.open(creditAccount({ creditsRemaining: 5 })) : undefined));
    expect(await handleStripeEvent(d, subscriptionEvent(1000))).toBe('applied');
    expect(await d.credits.getAccount('u1')).toMatchObject({ creditsRemaining: 5 });
    expect((await d.credits.ledger('u1')).map((row) => row.actionType)).toEqual(['test_grant']);
  });

  it('fails loudly when the stored subscription keeps changing under it', async () => {
    const d = await setup();
    d.billing.seedSubscription(storedSubscription());
    d.billing.before('applySubscriptionEvent', (call) => d.billing.seedSubscription(storedSubscription({ lastEventAt: 1000 + call })));
    await expect(handleStripeEvent(d, subscriptionEvent(5000, { status: 'active' }))).rejects.toThrow(/kept changing/);
  });
});

describe('a checkout session event', () => {
  const openSlot = (d: FakeDeps, sessionId: string) =>
    d.billing.seedCheckout('u1', { status: 'open', claimId: 'c1', intent: 'x', claimedAt: '2026-11-21T11:50:00.000Z', sessionId, url: `https://pay/${sessionId}`, expiresAt: '2026-11-21T12:20:00.000Z' });

  it("frees the creator's checkout slot when their subscription checkout is paid or expires", async () => {
    for (const type of ['checkout.session.completed', 'checkout.session.expired']) {
      const d = await setup();
      openSlot(d, 'cs_sub');
      expect(await handleStripeEvent(d, checkoutEvent(type, { sessionId: 'cs_sub', mode: 'subscription' }))).toBe('recorded');
      expect(await d.billing.getOpenCheckout('u1')).toBeUndefined();
    }
  });

  it('leaves the slot of a newer checkout alone', async () => {
    const d = await setup();
    openSlot(d, 'cs_new');
    await handleStripeEvent(d, checkoutEvent('checkout.session.expired', { sessionId: 'cs_old', mode: 'subscription' }));
    expect(await d.billing.getOpenCheckout('u1')).toMatchObject({ sessionId: 'cs_new' });
  });

  it('only records the asynchronous payment events of a subscription checkout (the subscription events carry the change)', async () => {
    const d = await setup();
    openSlot(d, 'cs_sub');
    expect(await handleStripeEvent(d, checkoutEvent('checkout.session.async_payment_succeeded', { sessionId: 'cs_sub', mode: 'subscription' }))).toBe('recorded');
    expect(await d.billing.getOpenCheckout('u1')).toMatchObject({ sessionId: 'cs_sub' });
  });

  it('records a subscription checkout of an unknown customer, or of none', async () => {
    const d = await setup();
    expect(await handleStripeEvent(d, checkoutEvent('checkout.session.completed', { mode: 'subscription', customerId: 'cus_stranger' }))).toBe('recorded');
    expect(await handleStripeEvent(d, checkoutEvent('checkout.session.completed', { mode: 'subscription', customerId: null }))).toBe('recorded');
  });

  it('only records a setup session', async () => {
    const d = await setup();
    expect(await handleStripeEvent(d, checkoutEvent('checkout.session.completed', { mode: 'setup' }))).toBe('recorded');
  });

  it('grants a paid top-up from our own record of the purchase, once', async () => {
    const d = await setup();
    d.credits.open(creditAccount({ creditsRemaining: 20 }));
    await withPendingTopUp(d);
    const paid = checkoutEvent('checkout.session.completed');
    expect(await handleStripeEvent(d, paid)).toBe('applied');
    expect(await d.credits.getAccount('u1')).toMatchObject({ creditsRemaining: 120 });
    expect(await d.credits.lastTransaction('u1')).toEqual({ actionType: 'credit_top_up', credits: 100, createdAt: '2026-11-21T12:00:00.000Z' });
    expect(d.billing.purchase('cs_1')).toMatchObject({ status: 'granted' });
    expect(d.metrics.recorded).toEqual([{ metric: 'CreditsPurchased', value: 100 }]);

    expect(await handleStripeEvent(d, paid)).toBe('duplicate');
    expect(await handleStripeEvent(d, checkoutEvent('checkout.session.async_payment_succeeded'))).toBe('duplicate');
    expect(await d.credits.getAccount('u1')).toMatchObject({ creditsRemaining: 120 });
    expect(d.metrics.total('CreditsPurchased')).toBe(100);
  });

  it('waits for an asynchronous payment: a completed but unpaid session grants nothing until the payment succeeds', async () => {
    const d = await setup();
    d.credits.open(creditAccount({ creditsRemaining: 20 }));
    await withPendingTopUp(d);
    expect(await handleStripeEvent(d, checkoutEvent('checkout.session.completed', { paymentStatus: 'unpaid' }))).toBe('recorded');
    expect(await d.credits.getAccount('u1')).toMatchObject({ creditsRemaining: 20 });
    expect(await handleStripeEvent(d, checkoutEvent('checkout.session.async_payment_succeeded'))).toBe('applied');
    expect(await d.credits.getAccount('u1')).toMatchObject({ creditsRemaining: 120 });
  });

  it('marks a purchase whose asynchronous payment failed, once, and never grants it afterwards', async () => {
    const d = await setup();
    d.credits.open(creditAccount({ creditsRemaining: 20 }));
    await withPendingTopUp(d);
    expect(await handleStripeEvent(d, checkoutEvent('checkout.session.async_payment_failed', { paymentStatus: 'unpaid' }))).toBe('applied');
    expect(d.billing.purchase('cs_1')).toMatchObject({ status: 'failed' });
    expect(await handleStripeEvent(d, checkoutEvent('checkout.session.async_payment_failed', { paymentStatus: 'unpaid' }))).toBe('duplicate');
    expect(await handleStripeEvent(d, checkoutEvent('checkout.session.async_payment_succeeded'))).toBe('duplicate');
    expect(await d.credits.getAccount('u1')).toMatchObject({ creditsRemaining: 20 });
    expect(d.metrics.recorded).toEqual([]);
  });

  it('grants nothing for a session we have no purchase for, paid or failed', async () => {
    const d = await setup();
    d.credits.open(creditAccount({ creditsRemaining: 20 }));
    expect(await handleStripeEvent(d, checkoutEvent('checkout.session.completed'))).toBe('unknown-purchase');
    expect(await handleStripeEvent(d, checkoutEvent('checkout.session.async_payment_failed'))).toBe('unknown-purchase');
    expect(await d.credits.getAccount('u1')).toMatchObject({ creditsRemaining: 20 });
  });

  it('leaves a top-up pending when its session expires unpaid', async () => {
    const d = await setup();
    await withPendingTopUp(d);
    expect(await handleStripeEvent(d, checkoutEvent('checkout.session.expired', { paymentStatus: 'unpaid' }))).toBe('recorded');
    expect(d.billing.purchase('cs_1')).toMatchObject({ status: 'pending' });
  });

  it('opens a credit account for a paid top-up whose buyer has none', async () => {
    const d = await setup();
    await withPendingTopUp(d);
    expect(await handleStripeEvent(d, checkoutEvent('checkout.session.completed'))).toBe('applied');
    expect(await d.credits.getAccount('u1')).toEqual(
      creditAccount({ creditsRemaining: 100, monthlyAllocation: 0, planType: 'starter', billingPeriodEnd: '2026-12-21T12:00:00.000Z' }),
    );
    expect(await d.credits.ledger('u1')).toEqual([{ actionType: 'credit_top_up', credits: 100, createdAt: '2026-11-21T12:00:00.000Z' }]);
  });

  it('opens no credit account again for a top-up paid while its buyer is being deleted: recorded once, the purchase left pending', async () => {
    const d = await setup();
    await withPendingTopUp(d);
    d.deleting.add('u1');
    const paid = checkoutEvent('checkout.session.completed');
    expect(await handleStripeEvent(d, paid)).toBe('account-deleted');
    expect(await handleStripeEvent(d, paid)).toBe('duplicate');
    expect(await d.credits.getAccount('u1')).toBeUndefined();
    expect(d.billing.purchase('cs_1')).toMatchObject({ status: 'pending' });
    expect(d.metrics.recorded).toEqual([]);
  });

  it("opens it with the plan's allocation and period when the buyer is subscribed", async () => {
    const d = await setup();
    d.billing.seedSubscription(storedSubscription({ status: 'active', tier: 'pro', currentPeriodEnd: '2026-12-10T00:00:00.000Z' }));
    await withPendingTopUp(d);
    await handleStripeEvent(d, checkoutEvent('checkout.session.completed'));
    expect(await d.credits.getAccount('u1')).toEqual(
      creditAccount({ creditsRemaining: 100, monthlyAllocation: 200, planType: 'pro', billingPeriodEnd: '2026-12-10T00:00:00.000Z' }),
    );
  });

  it('tops up an account that appeared while the purchase was opening one', async () => {
    const d = await setup();
    await withPendingTopUp(d);
    d.billing.before('grantPurchase', (call) => (call === 2 ? d.credits.open(creditAccount({ creditsRemaining: 20 })) : undefined));
    expect(await handleStripeEvent(d, checkoutEvent('checkout.session.completed'))).toBe('applied');
    expect(await d.credits.getAccount('u1')).toMatchObject({ creditsRemaining: 120 });
    expect(d.billing.calls('grantPurchase')).toBe(3);
  });

  it("fails loudly when the buyer's account keeps appearing and vanishing", async () => {
    const d = await setup();
    await withPendingTopUp(d);
    d.billing.before('grantPurchase', (call) => {
      if (call % 2 === 1) d.credits.tables.accounts.delete('u1');
      else d.credits.tables.accounts.set('u1', creditAccount());
    });
    await expect(handleStripeEvent(d, checkoutEvent('checkout.session.completed'))).rejects.toThrow(/no stable credit account/);
    expect(d.billing.purchase('cs_1')).toMatchObject({ status: 'pending' });
  });
});

describe('other events', () => {
  it('ignores event types it does not handle, recording nothing', async () => {
    const d = await setup();
    expect(await handleStripeEvent(d, otherEvent('customer.created'))).toBe('ignored');
    expect(d.billing.events.size).toBe(0);
  });

  it('records an invoice event once', async () => {
    const d = await setup();
    const event = otherEvent('invoice.paid');
    expect(await handleStripeEvent(d, event)).toBe('recorded');
    expect(await handleStripeEvent(d, event)).toBe('duplicate');
  });

  it('answers duplicate when a parallel delivery of the same event recorded it first', async () => {
    const d = await setup();
    const event = otherEvent('invoice.payment_failed');
    d.billing.before('recordEvent', (call) => (call === 1 ? d.billing.recordEvent(event) : undefined));
    expect(await handleStripeEvent(d, event)).toBe('duplicate');
  });
});

describe('the Stripe webhook', () => {
  it('applies a correctly signed event and says what happened', async () => {
    const d = await setup();
    const event = otherEvent('invoice.paid');
    expect(await applyStripeWebhook(d, d.events.sign(event))).toEqual({ eventId: event.id, eventType: 'invoice.paid', outcome: 'recorded' });
  });

  it('refuses a missing or wrong signature before reading or writing anything', async () => {
    const d = await setup();
    const { rawBody, signature } = d.events.sign(subscriptionEvent(1000));
    await expect(applyStripeWebhook(d, { rawBody, signature: undefined })).rejects.toThrow(BadSignatureError);
    await expect(applyStripeWebhook(d, { rawBody: rawBody.replace('trialing', 'active'), signature })).rejects.toThrow(BadSignatureError);
    expect(d.billing.calls('eventSeen')).toBe(0);
    expect(await d.billing.getSubscription('u1')).toBeUndefined();
  });
});
