import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { counters, credits, deliver, giveCredits, linkCustomer, otherEvent, subscription, subscriptionEvent } from './billing-support.ts';
import { accountWithRole, api, dynamo, outputs } from './support.ts';

/** The app's own origin (APP_ORIGIN of the handlers): return addresses must be on it. */
const origin = () => new URL(outputs().WebUrl).origin;
const urls = () => ({ successUrl: `${origin()}/checkout/success`, cancelUrl: `${origin()}/#pricing` });
const now = () => Math.floor(Date.now() / 1000);
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** Follows the hosted checkout like a browser would: GET the page, press Pay (the stand-in then sends the webhooks). */
const pay = async (checkoutUrl: string) => {
  const page = await fetch(checkoutUrl);
  expect(page.status).toBe(200);
  expect(await page.text()).toMatch(/Pay/);
  const paid = await fetch(`${checkoutUrl}/pay`, { method: 'POST', redirect: 'manual' });
  expect(paid.status).toBe(303);
  return paid.headers.get('location');
};

describe('subscribing through checkout', () => {
  it('Starter: checkout -> Pay -> trialing with 14 days left, Starter credits, counted once', async () => {
    const creator = await accountWithRole('creator', 'subscriber', { plan: 'none' });
    const before = await counters();
    const res = await api('POST', '/api/billing/checkout', { token: creator.token, body: { planType: 'starter', ...urls() } });
    expect(res.status).toBe(200);
    expect(res.body.url).toMatch(new RegExp(`^${outputs().StripeApiUrl}/checkout/`));
    const back = await pay(res.body.url);
    expect(back).toBe(`${origin()}/checkout/success?session_id=${res.body.url.split('/').pop()}`);
    expect(await subscription(creator.token)).toMatchObject({ status: 'trialing', subscribed: true, tier: 'starter', onTrial: true, trialDaysLeft: 14 });
    expect(await credits(creator.token)).toMatchObject({ creditsRemaining: 50, monthlyAllocation: 50, planType: 'starter', lastTransaction: { actionType: 'monthly_allocation', credits: 50 } });
    const after = await counters();
    expect((after['subs_trialing'] ?? 0) - (before['subs_trialing'] ?? 0)).toBe(1);
    expect((after['subs_tier_starter'] ?? 0) - (before['subs_tier_starter'] ?? 0)).toBe(1);
  });

  it('Pro: no trial, active, 200 credits; a second checkout is refused while subscribed', async () => {
    const creator = await accountWithRole('creator', 'pro', { plan: 'none' });
    const res = await api('POST', '/api/billing/checkout', { token: creator.token, body: { planType: 'pro', ...urls() } });
    await pay(res.body.url);
    expect(await subscription(creator.token)).toMatchObject({ status: 'active', tier: 'pro', onTrial: false, trialDaysLeft: 0 });
    expect((await credits(creator.token)).creditsRemaining).toBe(200);
    const again = await api('POST', '/api/billing/checkout', { token: creator.token, body: { planType: 'starter', ...urls() } });
    expect(again.status).toBe(409);
  });

  it('a top-up of 100 credits is granted by the paid session webhook, once', async () => {
    const creator = await accountWithRole('creator', 'top-up');
    await giveCredits(creator.id, 20);
    const res = await api('POST', '/api/credits/purchase', { token: creator.token, body: { creditAmount: 100, successUrl: `${origin()}/dashboard`, cancelUrl: `${origin()}/dashboard` } });
    expect(res.status).toBe(200);
    expect((await credits(creator.token)).creditsRemaining).toBe(20);
    await pay(res.body.url);
    expect(await credits(creator.token)).toMatchObject({ creditsRemaining: 120, lastTransaction: { actionType: 'credit_top_up', credits: 100 } });
    // Stripe delivers the same event again: no second grant.
    const events = (await (await fetch(`${outputs().StripeApiUrl}/_stand-in/events?type=checkout.session.completed`)).json()) as {
      data: { event: { id: string; data: { object: { id: string } } } }[];
    };
    const mine = events.data.filter((e) => res.body.url.endsWith(e.event.data.object.id));
    expect(mine).toHaveLength(1);
    await fetch(`${outputs().StripeApiUrl}/_stand-in/events/${mine[0]!.event.id}/redeliver`, { method: 'POST' });
    expect((await credits(creator.token)).creditsRemaining).toBe(120);
  });

  it('visiting the success URL grants nothing', async () => {
    const creator = await accountWithRole('creator', 'success-url', { plan: 'none' });
    const res = await api('POST', '/api/billing/checkout', { token: creator.token, body: { planType: 'starter', ...urls() } });
    const sessionId = res.body.url.split('/').pop();
    // No web server in this suite: what matters is that nothing but the webhook can grant, so a visit has no API path.
    await fetch(`${origin()}/checkout/success?session_id=${sessionId}`).catch(() => undefined);
    expect((await subscription(creator.token)).status).toBe('none');
    expect(await credits(creator.token)).toBeNull();
  });

  it('refuses return addresses on another origin, and a priceId that is not the plan\'s', async () => {
    const creator = await accountWithRole('creator', 'bad-urls', { plan: 'none' });
    const evil = await api('POST', '/api/billing/checkout', { token: creator.token, body: { planType: 'starter', successUrl: 'https://evil.example/x', cancelUrl: urls().cancelUrl } });
    expect(evil.status).toBe(400);
    const wrongPrice = await api('POST', '/api/billing/checkout', { token: creator.token, body: { planType: 'starter', priceId: 'price_pro_monthly', ...urls() } });
    expect(wrongPrice.status).toBe(400);
  });

  it('tells a non-creator the spec\'s sentence', async () => {
    const learner = await accountWithRole('learner');
    const res = await api('POST', '/api/billing/checkout', { token: learner.token, body: { planType: 'starter', ...urls() } });
    expect(res).toEqual({
      status: 403,
      body: { error: { code: 'FORBIDDEN', message: 'Only creators can subscribe to paid plans. Learners and Group Leaders are invited by creators.' } },
    });
  });
});

describe('the Stripe webhook', () => {
  it('the same event delivered 10 times at once: applied once, 10 answers 2xx', async () => {
    const creator = await accountWithRole('creator', 'redelivered', { plan: 'none' });
    const customer = await linkCustomer(creator.id);
    const before = await counters();
    const event = subscriptionEvent({ type: 'customer.subscription.created', created: now(), customer, subscription: `sub_${creator.id}`, status: 'trialing', trialEnd: inDays(14) });
    const results = await Promise.all(Array.from({ length: 10 }, () => deliver(event)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(results[0]!.body).toEqual({ received: true });
    const after = await counters();
    expect((after['subs_trialing'] ?? 0) - (before['subs_trialing'] ?? 0)).toBe(1);
    expect((await credits(creator.token)).creditsRemaining).toBe(50);
  });

  const lifecycle = (customer: string, subscriptionId: string, t0: number) => [
    subscriptionEvent({ type: 'customer.subscription.created', created: t0, customer, subscription: subscriptionId, status: 'trialing', trialEnd: inDays(14) }),
    subscriptionEvent({ type: 'customer.subscription.updated', created: t0 + 10, customer, subscription: subscriptionId, status: 'active', trialEnd: inDays(-1) }),
    otherEvent('invoice.paid', t0 + 10),
    subscriptionEvent({ type: 'customer.subscription.deleted', created: t0 + 20, customer, subscription: subscriptionId, status: 'canceled', trialEnd: inDays(-1) }),
  ];

  const permutations = <T>(items: T[]): T[][] =>
    items.length <= 1 ? [items] : items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));

  it('subscription events in every order end in the same state (older events are ignored)', async () => {
    const finals = new Set<string>();
    const orders = permutations([0, 1, 2, 3]);
    expect(orders).toHaveLength(24);
    const before = await counters();
    for (const order of orders) {
      const creator = await accountWithRole('creator', 'order', { plan: 'none' });
      const customer = await linkCustomer(creator.id);
      const events = lifecycle(customer, `sub_${creator.id}`, now() - 100);
      for (const i of order) expect((await deliver(events[i]!)).status).toBe(200);
      const sub = await subscription(creator.token);
      finals.add(JSON.stringify({ status: sub.status, subscribed: sub.subscribed, tier: sub.tier }));
    }
    expect([...finals]).toEqual([JSON.stringify({ status: 'canceled', subscribed: false, tier: 'starter' })]);
    const after = await counters();
    // 24 subscriptions, all canceled: counted as canceled, no longer as trialing or active.
    expect((after['subs_canceled'] ?? 0) - (before['subs_canceled'] ?? 0)).toBe(24);
    expect((after['subs_trialing'] ?? 0) - (before['subs_trialing'] ?? 0)).toBe(0);
    expect((after['subs_active'] ?? 0) - (before['subs_active'] ?? 0)).toBe(0);
  }, 240_000); // 24 accounts, each signed up through Cognito: slow on a busy machine, not a hang

  it('without the deletion, every order of created / updated / invoice.paid ends active', async () => {
    for (const order of permutations([0, 1, 2])) {
      const creator = await accountWithRole('creator', 'order3', { plan: 'none' });
      const customer = await linkCustomer(creator.id);
      const events = lifecycle(customer, `sub_${creator.id}`, now() - 100);
      for (const i of order) await deliver(events[i]!);
      expect(await subscription(creator.token)).toMatchObject({ status: 'active', subscribed: true, tier: 'starter', onTrial: false });
    }
  }, 120_000);

  const readEvent = async (id: string) =>
    (await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: { pk: `STRIPEEVT#${id}`, sk: 'EVENT' } }))).Item;

  for (const [why, opts] of [
    ['one changed byte in the body', { tamper: (p: string) => p.replace('trialing', 'trialinG') }],
    ['a wrong secret', { secret: 'whsec_wrong' }],
    ['a signature older than 300 s', { timestamp: Math.floor(Date.now() / 1000) - 301 }],
  ] as const) {
    it(`refuses ${why} with 400 BAD_SIGNATURE and writes nothing`, async () => {
      const creator = await accountWithRole('creator', 'tampered', { plan: 'none' });
      const customer = await linkCustomer(creator.id);
      const event = subscriptionEvent({ type: 'customer.subscription.created', created: now(), customer, subscription: `sub_${creator.id}`, status: 'trialing', trialEnd: inDays(14) });
      const res = await deliver(event, opts);
      expect(res).toMatchObject({ status: 400, body: { error: { code: 'BAD_SIGNATURE' } } });
      expect(await readEvent(event.id)).toBeUndefined();
      expect((await subscription(creator.token)).status).toBe('none');
    });
  }

  it('refuses a request without a signature', async () => {
    const res = await fetch(`${outputs().ApiUrl}/api/webhooks/stripe`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(400);
  });

  it('answers an unknown event type 200 with no effect', async () => {
    const event = otherEvent('customer.tax_id.created', now());
    expect(await deliver(event)).toEqual({ status: 200, body: { received: true } });
    expect(await readEvent(event.id)).toBeUndefined();
  });
});

describe('the subscription lifecycle on the Stripe stand-in', () => {
  const control = async (path: string, body: object = {}) => {
    const res = await fetch(`${outputs().StripeApiUrl}/_stand-in/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(res.status).toBe(200);
    return res.json();
  };

  it('trial ends -> active; an invoice fails -> past_due; cancelled in the portal -> canceled', async () => {
    const creator = await accountWithRole('creator', 'lifecycle', { plan: 'none' });
    const checkout = await api('POST', '/api/billing/checkout', { token: creator.token, body: { planType: 'starter', ...urls() } });
    await pay(checkout.body.url);
    const state = (await (await fetch(`${outputs().StripeApiUrl}/_stand-in/state`)).json()) as {
      subscriptions: Record<string, { id: string; customer: string; metadata: { userId?: string } }>;
    };
    const sub = Object.values(state.subscriptions).find((s) => s.metadata.userId === creator.id)!;

    await control(`subscriptions/${sub.id}/end-trial`);
    expect(await subscription(creator.token)).toMatchObject({ status: 'active', onTrial: false, trialDaysLeft: 0 });

    await control(`subscriptions/${sub.id}/fail-next-invoice`, { now: true });
    expect((await subscription(creator.token)).status).toBe('past_due');

    const portal = await api('POST', '/api/billing/portal', { token: creator.token, body: { returnUrl: `${origin()}/dashboard/creator` } });
    expect(portal.status).toBe(200);
    const cancelled = await fetch(`${portal.body.url}/subscriptions/${sub.id}/cancel`, { method: 'POST', redirect: 'manual' });
    expect(cancelled.status).toBe(303);
    expect(await subscription(creator.token)).toMatchObject({ status: 'canceled', subscribed: false });
  });

  it('the billing portal needs a billing account first', async () => {
    const creator = await accountWithRole('creator', 'no-portal', { plan: 'none' });
    const res = await api('POST', '/api/billing/portal', { token: creator.token, body: { returnUrl: `${origin()}/dashboard` } });
    expect(res.status).toBe(404);
  });
});
