import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseForm } from '#lib/local/stripe/form.ts';
import { signPayload } from '#lib/local/stripe/webhooks.ts';
import { startStripeStandIn, type StripeStandIn } from '#lib/local/stripe/stand-in.ts';
import { type Receiver, startReceiver } from './webhook-receiver.ts';

const webhookSecret = 'whsec_test_stand_in';
const appOrigin = 'http://localhost:5173';

let standIn: StripeStandIn;
let receiver: Receiver;
let stripe: Stripe;
const warnings: string[] = [];

const clientFor = (url: string, key = 'sk_test_local') => {
  const { hostname, port } = new URL(url);
  return new Stripe(key, { host: hostname, port: Number(port), protocol: 'http', maxNetworkRetries: 0, telemetry: false });
};

/** Every received event, verified the way the platform's webhook handler verifies it. */
const verifiedEvents = (): Stripe.Event[] =>
  receiver.received.map(({ body, signature }) => stripe.webhooks.constructEvent(body, signature, webhookSecret));

const eventsAbout = (id: string): Stripe.Event[] =>
  verifiedEvents().filter((event) => JSON.stringify(event.data.object).includes(id));

const checkout = (params: Partial<Stripe.Checkout.SessionCreateParams>, options?: Stripe.RequestOptions) =>
  stripe.checkout.sessions.create(
    {
      mode: 'subscription',
      line_items: [{ price: 'price_starter_monthly', quantity: 1 }],
      success_url: `${appOrigin}/dashboard?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${appOrigin}/pricing`,
      ...params,
    },
    options,
  );

const pay = (sessionUrl: string) => fetch(`${sessionUrl}/pay`, { method: 'POST', redirect: 'manual' });

const control = async (path: string, body: unknown = {}) => {
  const res = await fetch(`${standIn.url}/_stand-in/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { events: { id: string; type: string }[] } };
};

beforeAll(async () => {
  receiver = await startReceiver('/api/webhooks/stripe');
  standIn = await startStripeStandIn({
    port: 0,
    webhookUrl: receiver.url,
    webhookSecret,
    webhookRetryDelaysMs: [20, 40],
    logger: { info: () => undefined, warn: (line) => warnings.push(line) },
  });
  stripe = clientFor(standIn.url);
});

afterAll(async () => {
  await standIn?.stop();
  await receiver?.stop();
});

beforeEach(() => {
  receiver.received.length = 0;
  receiver.statuses.length = 0;
});

describe('the Stripe stand-in, driven by the official stripe client', () => {
  it('listens on an ephemeral port and reports its real URL', () => {
    expect(standIn.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(standIn.url).not.toMatch(/:0$/);
  });

  it('creates, retrieves and updates a customer with metadata', async () => {
    const created = await stripe.customers.create({ email: 'ada@example.com', metadata: { userId: 'user-1' } });
    expect(created).toMatchObject({ object: 'customer', email: 'ada@example.com', metadata: { userId: 'user-1' } });
    expect(created.id).toMatch(/^cus_/);

    const updated = await stripe.customers.update(created.id, { email: 'ada@lovelace.dev', metadata: { plan: 'pro' } });
    expect(updated.email).toBe('ada@lovelace.dev');
    expect(updated.metadata).toEqual({ userId: 'user-1', plan: 'pro' });
    expect(await stripe.customers.retrieve(created.id)).toMatchObject({ email: 'ada@lovelace.dev' });
  });

  it('serves the fixed price catalogue', async () => {
    const starter = await stripe.prices.retrieve('price_starter_monthly');
    expect(starter).toMatchObject({ unit_amount: 2800, currency: 'gbp', type: 'recurring', recurring: { interval: 'month' } });
    expect(await stripe.prices.retrieve('price_pro_monthly')).toMatchObject({ unit_amount: 6700, type: 'recurring' });
    expect(await stripe.prices.retrieve('price_credits_100')).toMatchObject({ unit_amount: 500, type: 'one_time', recurring: null });

    const all = await stripe.prices.list({ limit: 10 });
    expect(all.data.map((price) => price.id).sort()).toEqual(['price_credits_100', 'price_pro_monthly', 'price_starter_monthly']);
    const recurring = await stripe.prices.list({ type: 'recurring' });
    expect(recurring.data).toHaveLength(2);
  });

  it('takes a customer through a 14-day trial checkout and delivers three events that verify', async () => {
    const customer = await stripe.customers.create({ email: 'creator@example.com', metadata: { userId: 'user-42' } });
    const session = await checkout({
      customer: customer.id,
      client_reference_id: 'user-42',
      subscription_data: { trial_period_days: 14, metadata: { userId: 'user-42' } },
      metadata: { userId: 'user-42', planType: 'starter' },
    });
    expect(session).toMatchObject({ object: 'checkout.session', status: 'open', payment_status: 'unpaid', mode: 'subscription', amount_total: 2800 });
    expect(session.url).toBe(`${standIn.url}/checkout/${session.id}`);

    const page = await fetch(session.url!);
    const html = await page.text();
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('Starter');
    expect(html).toContain('£28.00');
    expect(html).toContain('14-day free trial');
    expect(html).toMatch(/<button[^>]*>Pay<\/button>/);
    expect(html).toMatch(/<button[^>]*>Cancel<\/button>/);

    const paid = await pay(session.url!);
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`${appOrigin}/dashboard?session_id=${session.id}`);

    const events = verifiedEvents();
    expect(events.map((event) => event.type)).toEqual(['checkout.session.completed', 'customer.subscription.created', 'invoice.paid']);
    for (const event of events) {
      expect(event).toMatchObject({ object: 'event', livemode: false, api_version: Stripe.API_VERSION });
      expect(event.id).toMatch(/^evt_/);
    }
    const completed = events[0]!.data.object as Stripe.Checkout.Session;
    const subscription = events[1]!.data.object as Stripe.Subscription;
    const invoice = events[2]!.data.object as Stripe.Invoice;
    expect(completed).toMatchObject({
      id: session.id,
      status: 'complete',
      customer: customer.id,
      client_reference_id: 'user-42',
      metadata: { userId: 'user-42', planType: 'starter' },
      subscription: subscription.id,
    });
    expect(subscription).toMatchObject({ status: 'trialing', customer: customer.id, metadata: { userId: 'user-42' } });
    expect(subscription.items.data[0]?.price.id).toBe('price_starter_monthly');
    const fourteenDays = 14 * 86_400;
    expect(subscription.trial_end! - subscription.trial_start!).toBe(fourteenDays);
    expect(subscription.items.data[0]?.current_period_end).toBe(subscription.trial_end);
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: 0, customer: customer.id });
    expect(invoice.parent?.subscription_details?.subscription).toBe(subscription.id);

    const retrieved = await stripe.checkout.sessions.retrieve(session.id, { expand: ['subscription'] });
    expect(retrieved.status).toBe('complete');
    expect((retrieved.subscription as Stripe.Subscription).status).toBe('trialing');
  });

  it('charges a one-off credit top-up in payment mode with a single completed event', async () => {
    const customer = await stripe.customers.create({ email: 'topup@example.com' });
    const session = await checkout({
      mode: 'payment',
      customer: customer.id,
      line_items: [{ price: 'price_credits_100', quantity: 1 }],
      metadata: { userId: 'user-7', credits: '100' },
    });
    const html = await (await fetch(session.url!)).text();
    expect(html).toContain('100 AI credits');
    expect(html).toContain('£5.00');
    expect(html).not.toContain('free trial');

    expect((await pay(session.url!)).status).toBe(303);
    const events = verifiedEvents();
    expect(events.map((event) => event.type)).toEqual(['checkout.session.completed']);
    expect(events[0]!.data.object).toMatchObject({ id: session.id, mode: 'payment', payment_status: 'paid', amount_total: 500, metadata: { credits: '100' } });
  });

  it('sends the browser to cancel_url on Cancel and delivers nothing', async () => {
    const session = await checkout({ customer_email: 'maybe@example.com' });
    const res = await fetch(`${session.url}/cancel`, { method: 'POST', redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${appOrigin}/pricing`);
    expect(receiver.received).toHaveLength(0);
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
  });

  it('does not charge twice when Pay is submitted again', async () => {
    const session = await checkout({ customer_email: 'twice@example.com' });
    await pay(session.url!);
    const again = await pay(session.url!);
    expect(again.status).toBe(303);
    expect(verifiedEvents().filter((event) => event.type === 'checkout.session.completed')).toHaveLength(1);
  });

  it('replays the same response for a repeated Idempotency-Key and refuses the key with other parameters', async () => {
    const first = await stripe.customers.create({ email: 'idem@example.com' }, { idempotencyKey: 'signup-user-9' });
    const second = await stripe.customers.create({ email: 'idem@example.com' }, { idempotencyKey: 'signup-user-9' });
    expect(second.id).toBe(first.id);
    expect(second.lastResponse.headers['idempotent-replayed']).toBe('true');

    const conflicting = stripe.customers.create({ email: 'other@example.com' }, { idempotencyKey: 'signup-user-9' });
    await expect(conflicting).rejects.toMatchObject({ type: 'StripeIdempotencyError', statusCode: 400, rawType: 'idempotency_error' });

    const sessionA = await checkout({ customer_email: 'a@example.com' }, { idempotencyKey: 'checkout-1' });
    const sessionB = await checkout({ customer_email: 'a@example.com' }, { idempotencyKey: 'checkout-1' });
    expect(sessionB.id).toBe(sessionA.id);
  });

  it('cancels from the billing portal and delivers customer.subscription.deleted', async () => {
    const customer = await stripe.customers.create({ email: 'portal@example.com' });
    const session = await checkout({ customer: customer.id, line_items: [{ price: 'price_pro_monthly', quantity: 1 }] });
    await pay(session.url!);
    const subscriptionId = (await stripe.checkout.sessions.retrieve(session.id)).subscription as string;
    expect((await stripe.subscriptions.retrieve(subscriptionId)).status).toBe('active');
    receiver.received.length = 0;

    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: `${appOrigin}/dashboard` });
    expect(portal.url).toBe(`${standIn.url}/billing_portal/${portal.id}`);
    const html = await (await fetch(portal.url)).text();
    expect(html).toContain('Pro plan');
    expect(html).toContain('£67.00 per month');
    expect(html).toMatch(/<button[^>]*>Cancel subscription<\/button>/);
    expect(html).toContain(`href="${appOrigin}/dashboard"`);

    const cancelled = await fetch(`${portal.url}/subscriptions/${subscriptionId}/cancel`, { method: 'POST', redirect: 'manual' });
    expect(cancelled.status).toBe(303);
    expect(verifiedEvents().map((event) => [event.type, (event.data.object as Stripe.Subscription).status])).toEqual([
      ['customer.subscription.deleted', 'canceled'],
    ]);
    expect((await stripe.subscriptions.retrieve(subscriptionId)).status).toBe('canceled');
    expect(await (await fetch(portal.url)).text()).not.toMatch(/<button[^>]*>Cancel subscription<\/button>/);
  });

  it('updates cancel_at_period_end and cancels through the API, with the matching events', async () => {
    const session = await checkout({ customer_email: 'api@example.com' });
    await pay(session.url!);
    const subscriptionId = (await stripe.checkout.sessions.retrieve(session.id)).subscription as string;
    receiver.received.length = 0;

    const updated = await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
    expect(updated.cancel_at_period_end).toBe(true);
    expect(updated.cancel_at).toBe(updated.items.data[0]?.current_period_end);
    const cancelled = await stripe.subscriptions.cancel(subscriptionId);
    expect(cancelled.status).toBe('canceled');
    await standIn.webhooksIdle();
    expect(eventsAbout(subscriptionId).map((event) => event.type)).toEqual([
      'customer.subscription.updated',
      'customer.subscription.deleted',
    ]);
    const update = eventsAbout(subscriptionId)[0]!;
    expect(update.data.previous_attributes).toMatchObject({ cancel_at_period_end: false });
    expect(update.request?.id).toMatch(/^req_/);
  });

  it("deletes a customer as Stripe does: the deleted stub, its running subscription ended with it, and 404 resource_missing after", async () => {
    const session = await checkout({ customer_email: 'leaving@example.com' });
    await pay(session.url!);
    const paid = await stripe.checkout.sessions.retrieve(session.id);
    const customerId = paid.customer as string;
    const subscriptionId = paid.subscription as string;
    receiver.received.length = 0;

    expect(await stripe.customers.del(customerId)).toEqual({ id: customerId, object: 'customer', deleted: true });
    expect(await stripe.subscriptions.retrieve(subscriptionId)).toMatchObject({ status: 'canceled' });
    await standIn.webhooksIdle();
    expect(eventsAbout(customerId).map((event) => event.type)).toEqual(['customer.subscription.deleted', 'customer.deleted']);
    for (const call of [stripe.customers.retrieve(customerId), stripe.customers.del(customerId), stripe.customers.del('cus_never_was')]) {
      await expect(call).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 404, code: 'resource_missing' });
    }
  });

  it('answers errors in Stripe shape, which the client raises as typed errors', async () => {
    const missing = stripe.customers.retrieve('cus_does_not_exist');
    await expect(missing).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    await expect(missing).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing', param: 'id' });

    await expect(checkout({ line_items: [{ price: 'price_nope', quantity: 1 }] })).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
      code: 'resource_missing',
      param: 'line_items[0][price]',
    });
    await expect(checkout({ line_items: [{ price: 'price_credits_100', quantity: 1 }] })).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('recurring price'),
    });
    await expect(clientFor(standIn.url, 'sk_live_real_key_123').customers.create({})).rejects.toBeInstanceOf(
      Stripe.errors.StripeAuthenticationError,
    );

    const raw = await fetch(`${standIn.url}/v1/customers/cus_nope`, { headers: { Authorization: 'Bearer sk_test_x' } });
    expect(raw.status).toBe(404);
    expect(await raw.json()).toMatchObject({ error: { type: 'invalid_request_error', code: 'resource_missing', message: "No such customer: 'cus_nope'" } });
  });

  it('ends a trial on request: warning, activation and the first paid invoice', async () => {
    const session = await checkout({ customer_email: 'trial@example.com', subscription_data: { trial_period_days: 14 } });
    await pay(session.url!);
    const subscriptionId = (await stripe.checkout.sessions.retrieve(session.id)).subscription as string;
    receiver.received.length = 0;

    const ended = await control(`subscriptions/${subscriptionId}/end-trial`);
    expect(ended.status).toBe(200);
    const events = verifiedEvents();
    expect(events.map((event) => event.type)).toEqual([
      'customer.subscription.trial_will_end',
      'customer.subscription.updated',
      'invoice.paid',
    ]);
    expect(events[1]!.data.object).toMatchObject({ status: 'active' });
    expect(events[1]!.data.previous_attributes).toMatchObject({ status: 'trialing' });
    expect(events[2]!.data.object).toMatchObject({ amount_paid: 2800, billing_reason: 'subscription_cycle' });
  });

  it('fails the next invoice on request and renews into a new period afterwards', async () => {
    const session = await checkout({ customer_email: 'renew@example.com' });
    await pay(session.url!);
    const subscriptionId = (await stripe.checkout.sessions.retrieve(session.id)).subscription as string;
    const before = await stripe.subscriptions.retrieve(subscriptionId);
    receiver.received.length = 0;

    await control(`subscriptions/${subscriptionId}/fail-next-invoice`, { now: true });
    expect(verifiedEvents().map((event) => event.type)).toEqual(['customer.subscription.updated', 'invoice.payment_failed']);
    expect((await stripe.subscriptions.retrieve(subscriptionId)).status).toBe('past_due');
    receiver.received.length = 0;

    await control(`subscriptions/${subscriptionId}/advance`);
    const [updated, paid] = verifiedEvents();
    expect(updated?.data.object).toMatchObject({ status: 'active' });
    expect(paid?.type).toBe('invoice.paid');
    const line = (paid!.data.object as Stripe.Invoice).lines.data[0]!;
    const firstPeriodEnd = before.items.data[0]!.current_period_end;
    expect(line.period.start).toBeGreaterThan(firstPeriodEnd);
    expect((await stripe.subscriptions.retrieve(subscriptionId)).items.data[0]?.current_period_end).toBe(line.period.end);
  });

  it('lists delivered events and re-delivers one with a fresh signature', async () => {
    const session = await checkout({ customer_email: 'log@example.com', mode: 'payment', line_items: [{ price: 'price_credits_100' }] });
    await pay(session.url!);
    const log = (await (await fetch(`${standIn.url}/_stand-in/events?type=checkout.session.completed`)).json()) as {
      data: { event: Stripe.Event; delivery: { state: string; attempts: unknown[] } }[];
    };
    const entry = log.data.find((item) => (item.event.data.object as { id: string }).id === session.id);
    expect(entry?.delivery.state).toBe('delivered');
    receiver.received.length = 0;

    const res = await fetch(`${standIn.url}/_stand-in/events/${entry!.event.id}/redeliver`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(verifiedEvents().map((event) => event.id)).toEqual([entry!.event.id]);
  });

  it('retries a webhook the platform refused and survives an unreachable endpoint', async () => {
    receiver.statuses.push(500);
    const session = await checkout({ customer_email: 'retry@example.com', mode: 'payment', line_items: [{ price: 'price_credits_100' }] });
    await pay(session.url!);
    await standIn.webhooksIdle();
    expect(verifiedEvents().map((event) => event.type)).toEqual(['checkout.session.completed']);
    const eventId = verifiedEvents()[0]!.id;
    expect(standIn.state.deliveries[eventId]?.attempts.map((attempt) => attempt.status)).toEqual([500, 200]);
    expect(warnings.some((line) => line.includes(eventId) && line.includes('retrying'))).toBe(true);

    const orphan = await startStripeStandIn({
      port: 0,
      webhookUrl: 'http://127.0.0.1:9/nowhere',
      webhookSecret,
      webhookRetryDelaysMs: [10],
      logger: { info: () => undefined, warn: () => undefined },
    });
    try {
      const client = clientFor(orphan.url);
      const lost = await client.checkout.sessions.create({
        mode: 'payment',
        line_items: [{ price: 'price_credits_100' }],
        success_url: `${appOrigin}/ok`,
      });
      // No email on the session: the hosted page asks for one, as Stripe's does.
      expect((await pay(lost.url!)).status).toBe(400);
      expect((await fetch(`${lost.url!}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'email=lost%40example.com', redirect: 'manual' })).status).toBe(303);
      await orphan.webhooksIdle();
      const delivery = Object.values(orphan.state.deliveries)[0];
      expect(delivery?.state).toBe('failed');
      expect(delivery?.attempts).toHaveLength(2);
      expect((await client.checkout.sessions.retrieve(lost.id)).status).toBe('complete');
    } finally {
      await orphan.stop();
    }
  });
});

describe('checkout session expiry, as Stripe does it', () => {
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  it('expires a session 24 hours after creation by default, or at an expires_at between 30 minutes and 24 hours', async () => {
    const byDefault = await checkout({ customer_email: 'default-expiry@example.com' });
    expect(byDefault.expires_at - byDefault.created).toBe(24 * 3600);

    const soon = nowSeconds() + 30 * 60;
    expect((await checkout({ customer_email: 'soon@example.com', expires_at: soon })).expires_at).toBe(soon);

    await expect(checkout({ expires_at: nowSeconds() + 10 * 60 })).rejects.toMatchObject({
      statusCode: 400,
      param: 'expires_at',
      message: 'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.',
    });
    await expect(checkout({ expires_at: nowSeconds() + 25 * 3600 })).rejects.toMatchObject({
      statusCode: 400,
      param: 'expires_at',
      message: 'The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.',
    });
  });

  it('expires an open session on request: checkout.session.expired is sent, the page says so and Pay takes nothing', async () => {
    const customer = await stripe.customers.create({ email: 'replaced@example.com' });
    const session = await checkout({ customer: customer.id, expires_at: nowSeconds() + 30 * 60 });
    const open = await stripe.checkout.sessions.list({ customer: customer.id, status: 'open' });
    expect(open.data.map((item) => item.id)).toEqual([session.id]);

    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ id: session.id, status: 'expired', payment_status: 'unpaid', url: null });
    await standIn.webhooksIdle();
    expect(verifiedEvents().map((event) => [event.type, (event.data.object as Stripe.Checkout.Session).status])).toEqual([
      ['checkout.session.expired', 'expired'],
    ]);
    expect((await stripe.checkout.sessions.list({ customer: customer.id, status: 'open' })).data).toEqual([]);

    const page = await (await fetch(session.url!)).text();
    expect(page).toContain('This checkout has expired');
    expect(page).not.toMatch(/<button[^>]*>Pay<\/button>/);
    const paid = await pay(session.url!);
    expect(paid.status).toBe(409);
    expect(await paid.text()).toContain('This checkout has expired');
    await standIn.webhooksIdle();
    expect(verifiedEvents().map((event) => event.type)).toEqual(['checkout.session.expired']);
    expect(Object.values(standIn.state.subscriptions).filter((sub) => sub.customer === customer.id)).toEqual([]);
  });

  it('refuses to expire a session that is no longer open, with Stripe\'s message', async () => {
    const session = await checkout({ customer_email: 'paid-first@example.com' });
    await pay(session.url!);
    await expect(stripe.checkout.sessions.expire(session.id)).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
      message: 'Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of `complete`.',
    });

    const expired = await checkout({ customer_email: 'twice-expired@example.com' });
    await stripe.checkout.sessions.expire(expired.id);
    await expect(stripe.checkout.sessions.expire(expired.id)).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining('`expired`') });
  });

  it('counts a session past its expires_at as expired and tells the platform', async () => {
    const session = await checkout({ customer_email: 'too-late@example.com', expires_at: nowSeconds() + 30 * 60 });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 31 * 60 * 1000);
      expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('expired');
      const paid = await pay(session.url!);
      expect(paid.status).toBe(409);
      await standIn.webhooksIdle();
      expect(eventsAbout(session.id).map((event) => event.type)).toEqual(['checkout.session.expired']);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('the stand-in state', () => {
  it('survives a JSON round trip: a new stand-in continues from the saved state', async () => {
    const customer = await stripe.customers.create({ email: 'saved@example.com' });
    const saved = JSON.parse(JSON.stringify(standIn.state)) as StripeStandIn['state'];
    const restarted = await startStripeStandIn({ port: 0, webhookUrl: receiver.url, webhookSecret, state: saved });
    try {
      const client = clientFor(restarted.url);
      expect(await client.customers.retrieve(customer.id)).toMatchObject({ email: 'saved@example.com' });
      expect(await client.prices.retrieve('price_pro_monthly')).toMatchObject({ unit_amount: 6700 });
    } finally {
      await restarted.stop();
    }
  });
});

describe('the stand-in webhook signature', () => {
  it('is byte for byte what stripe.webhooks.generateTestHeaderString produces', () => {
    const payload = JSON.stringify({ id: 'evt_1', object: 'event' });
    const timestamp = 1_700_000_000;
    expect(signPayload(payload, webhookSecret, timestamp)).toBe(
      Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret, timestamp }),
    );
  });
});

describe('the stand-in form decoding', () => {
  it('reads Stripe bracket notation into nested objects and arrays', () => {
    const form = parseForm(
      'line_items[0][price]=price_x&line_items[0][quantity]=2&subscription_data[trial_period_days]=14' +
        '&metadata[userId]=u%201&expand[]=customer&expand[]=subscription',
    );
    expect(form).toEqual({
      line_items: [{ price: 'price_x', quantity: '2' }],
      subscription_data: { trial_period_days: '14' },
      metadata: { userId: 'u 1' },
      expand: ['customer', 'subscription'],
    });
  });
});
