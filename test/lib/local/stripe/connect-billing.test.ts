import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStripeStandIn, type StripeStandIn } from '#lib/local/stripe/stand-in.ts';
import { startReceiver, type Receiver } from './webhook-receiver.ts';

/**
 * Stripe Billing on connected accounts (a creator's memberships), driven by the official SDK as the platform
 * drives it: subscription-mode Checkout with `price_data.recurring`, the subscription and its invoices, Connect
 * events signed with the Connect secret, the billing portal (cancel at period end) and the period-advance control.
 */
const platformSecret = 'whsec_platform_endpoint';
const connectSecret = 'whsec_connect_endpoint';
const appOrigin = 'http://localhost:5173';
const day = 86_400;

let standIn: StripeStandIn;
let platform: Receiver;
let connect: Receiver;
let stripe: Stripe;

const on = (account: string): Stripe.RequestOptions => ({ stripeAccount: account });
const connectEvents = () => connect.events(connectSecret);

const control = async (path: string, body: unknown = {}) => {
  const res = await fetch(`${standIn.url}/_stand-in/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const readyAccount = async (email: string): Promise<string> => {
  const account = await stripe.accounts.create({ type: 'standard', email });
  expect((await control(`accounts/${account.id}/ready`)).status).toBe(200);
  return account.id;
};

const membershipCheckout = (account: string, interval: 'month' | 'year' = 'month', email?: string) =>
  stripe.checkout.sessions.create(
    {
      mode: 'subscription',
      line_items: [{ price_data: { currency: 'gbp', unit_amount: 1500, recurring: { interval }, product_data: { name: 'All courses' } }, quantity: 1 }],
      ...(email ? { customer_email: email } : {}),
      metadata: { membershipId: 'mem-1' },
      subscription_data: { metadata: { membershipId: 'mem-1' } },
      success_url: `${appOrigin}/memberships/mem-1?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${appOrigin}/memberships/mem-1`,
    },
    on(account),
  );

/** Pays on the hosted page as a browser does; `email` is typed when the session has none. */
const pay = (sessionUrl: string, email?: string) =>
  fetch(`${sessionUrl}/pay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: email ? new URLSearchParams({ email }).toString() : '',
    redirect: 'manual',
  });

const subscribed = async (account: string, interval: 'month' | 'year' = 'month') => {
  // The onboarding's account.updated is not the sale's.
  await standIn.webhooksIdle();
  connect.clear();
  const session = await membershipCheckout(account, interval);
  expect((await pay(session.url!, 'member@example.com')).status).toBe(303);
  await standIn.webhooksIdle();
  const paid = await stripe.checkout.sessions.retrieve(session.id, {}, on(account));
  return { session: paid, subscription: await stripe.subscriptions.retrieve(paid.subscription as string, {}, on(account)) };
};

beforeAll(async () => {
  platform = await startReceiver('/api/webhooks/stripe');
  connect = await startReceiver('/api/webhooks/stripe-connect');
  standIn = await startStripeStandIn({
    port: 0,
    webhookUrl: platform.url,
    webhookSecret: platformSecret,
    connectWebhookUrl: connect.url,
    connectWebhookSecret: connectSecret,
    webhookRetryDelaysMs: [20, 40],
    logger: { info: () => undefined, warn: () => undefined },
  });
  const { hostname, port } = new URL(standIn.url);
  stripe = new Stripe('sk_test_local', { host: hostname, port: Number(port), protocol: 'http', maxNetworkRetries: 0, telemetry: false });
});

afterAll(async () => {
  await standIn?.stop();
  await platform?.stop();
  await connect?.stop();
});

beforeEach(async () => {
  await standIn.webhooksIdle();
  platform.clear();
  connect.clear();
});

describe('subscriptions on a connected account in the stand-in', () => {
  it('sells a yearly subscription through Checkout on the account: the subscription, its paid invoice and Connect events naming the account', async () => {
    const account = await readyAccount('creator-yearly@example.com');
    const { session, subscription } = await subscribed(account, 'year');

    expect(session).toMatchObject({ mode: 'subscription', status: 'complete', payment_status: 'paid', customer_details: { email: 'member@example.com' } });
    expect(subscription).toMatchObject({ status: 'active', metadata: { membershipId: 'mem-1' }, cancel_at_period_end: false });
    const item = subscription.items.data[0]!;
    expect(item.price.recurring?.interval).toBe('year');
    expect(item.current_period_end - item.current_period_start).toBeGreaterThanOrEqual(365 * day);
    const customer = (await stripe.customers.retrieve(subscription.customer as string, {}, on(account))) as Stripe.Customer;
    expect(customer.email).toBe('member@example.com');
    const invoice = await stripe.invoices.retrieve(subscription.latest_invoice as string, {}, on(account));
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: 1500, billing_reason: 'subscription_create' });

    const events = connectEvents();
    expect(events.map((event) => event.type)).toEqual(['checkout.session.completed', 'customer.subscription.created', 'invoice.paid']);
    expect(events.every((event) => event.account === account)).toBe(true);
    // The platform's own endpoint hears nothing of the creator's sales.
    expect(platform.received).toHaveLength(0);
  });

  it('keeps the account\'s subscriptions its own: without the header, or on another account, they do not exist', async () => {
    const account = await readyAccount('creator-scoped@example.com');
    const other = await readyAccount('creator-other@example.com');
    const { subscription } = await subscribed(account);

    await expect(stripe.subscriptions.retrieve(subscription.id)).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
    await expect(stripe.subscriptions.retrieve(subscription.id, {}, on(other))).rejects.toMatchObject({ statusCode: 404 });
  });

  it('renews each period (invoice.paid), and a failed renewal makes it past_due (invoice.payment_failed)', async () => {
    const account = await readyAccount('creator-renews@example.com');
    const { subscription } = await subscribed(account);
    connect.clear();

    const renewed = await control(`subscriptions/${subscription.id}/advance`);
    expect(renewed.status).toBe(200);
    await standIn.webhooksIdle();
    expect(connectEvents().map((event) => event.type)).toEqual(['customer.subscription.updated', 'invoice.paid']);
    const after = await stripe.subscriptions.retrieve(subscription.id, {}, on(account));
    expect(after.items.data[0]!.current_period_start).toBe(subscription.items.data[0]!.current_period_end);

    connect.clear();
    expect((await control(`subscriptions/${subscription.id}/fail-next-invoice`, { now: true })).status).toBe(200);
    await standIn.webhooksIdle();
    const failed = connectEvents();
    expect(failed.map((event) => event.type)).toEqual(['customer.subscription.updated', 'invoice.payment_failed']);
    expect((failed[0]!.data.object as Stripe.Subscription).status).toBe('past_due');
    expect(failed.every((event) => event.account === account)).toBe(true);
  });

  it('lets the member cancel in the billing portal at the period\'s end; the period ending deletes the subscription', async () => {
    const account = await readyAccount('creator-portal@example.com');
    const { subscription } = await subscribed(account);
    connect.clear();

    const portal = await stripe.billingPortal.sessions.create(
      { customer: subscription.customer as string, return_url: `${appOrigin}/dashboard` },
      on(account),
    );
    expect(portal.url).toBe(`${standIn.url}/billing_portal/${portal.id}`);
    const page = await (await fetch(portal.url)).text();
    expect(page).toContain('All courses plan');
    expect(page).toMatch(/<button[^>]*>Cancel subscription<\/button>/);

    const cancelled = await fetch(`${portal.url}/subscriptions/${subscription.id}/cancel`, { method: 'POST', redirect: 'manual' });
    expect(cancelled.status).toBe(303);
    await standIn.webhooksIdle();
    const cancelling = await stripe.subscriptions.retrieve(subscription.id, {}, on(account));
    expect(cancelling).toMatchObject({ status: 'active', cancel_at_period_end: true, cancel_at: subscription.items.data[0]!.current_period_end });
    expect(connectEvents().map((event) => event.type)).toEqual(['customer.subscription.updated']);
    expect(await (await fetch(portal.url)).text()).toContain('ends on');

    connect.clear();
    expect((await control(`subscriptions/${subscription.id}/advance`)).status).toBe(200);
    await standIn.webhooksIdle();
    const ended = connectEvents();
    expect(ended.map((event) => event.type)).toEqual(['customer.subscription.deleted']);
    expect(ended[0]).toMatchObject({ account, data: { object: { id: subscription.id, status: 'canceled' } } });
  });

  it('refuses a subscription checkout on an account that cannot take charges yet, as Stripe does', async () => {
    const account = await stripe.accounts.create({ type: 'standard', email: 'creator-pending@example.com' });
    await expect(membershipCheckout(account.id)).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining('cannot currently make charges') });
  });

  it('refuses an interval it does not model', async () => {
    const account = await readyAccount('creator-weekly@example.com');
    await expect(
      stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          line_items: [{ price_data: { currency: 'gbp', unit_amount: 500, recurring: { interval: 'week' }, product_data: { name: 'Weekly' } }, quantity: 1 }],
          success_url: `${appOrigin}/done`,
        },
        on(account),
      ),
    ).rejects.toMatchObject({ statusCode: 400 });
  });
});
