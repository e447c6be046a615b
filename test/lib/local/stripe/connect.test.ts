import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { savedState } from '#lib/local/stripe/saved-state.ts';
import { startStripeStandIn, type StripeStandIn } from '#lib/local/stripe/stand-in.ts';
import { startReceiver, type Receiver } from './webhook-receiver.ts';

const platformSecret = 'whsec_platform_endpoint';
const connectSecret = 'whsec_connect_endpoint';
const appOrigin = 'http://localhost:5173';
const nowSeconds = () => Math.floor(Date.now() / 1000);

let standIn: StripeStandIn;
let platform: Receiver;
let connect: Receiver;
let stripe: Stripe;

const clientFor = (url: string) => {
  const { hostname, port } = new URL(url);
  return new Stripe('sk_test_local', { host: hostname, port: Number(port), protocol: 'http', maxNetworkRetries: 0, telemetry: false });
};

const on = (account: string): Stripe.RequestOptions => ({ stripeAccount: account });

/** Connect events as the platform's `/api/webhooks/stripe-connect` sees them (verified with its own secret). */
const connectEvents = (type?: string) => connect.events(connectSecret).filter((event) => !type || event.type === type);

const control = async (path: string, body: unknown = {}) => {
  const res = await fetch(`${standIn.url}/_stand-in/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { events: { id: string; type: string }[] } };
};

const newAccount = (email: string) => stripe.accounts.create({ type: 'standard', email, metadata: { userId: email } });

/** A connected account that has finished onboarding (through the ready control). */
const readyAccount = async (email: string): Promise<Stripe.Account> => {
  const account = await newAccount(email);
  expect((await control(`accounts/${account.id}/ready`)).status).toBe(200);
  return stripe.accounts.retrieve(account.id);
};

const onboardingLink = (account: string) =>
  stripe.accountLinks.create({
    account,
    type: 'account_onboarding',
    refresh_url: `${appOrigin}/creator/payouts?refresh=1`,
    return_url: `${appOrigin}/creator/payouts?done=1`,
  });

/** The action of the form whose button says `button`, as a browser would resolve it against the page's URL. */
const formAction = (html: string, pageUrl: string, button: string): string => {
  const forms = [...html.matchAll(/<form method="post" action="([^"]+)"[^>]*>[\s\S]*?<button[^>]*>([^<]+)<\/button>/g)];
  const form = forms.find((match) => match[2] === button);
  if (!form?.[1]) throw new Error(`no form with a "${button}" button`);
  return new URL(form[1].replaceAll('&#38;', '&'), pageUrl).toString();
};

/** Submits a page's form as a browser does (an empty urlencoded body), without following the redirect. */
const submit = (action: string) =>
  fetch(action, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual' });

const sellCourse = (account: string, params: Partial<Stripe.Checkout.SessionCreateParams> = {}, options: Stripe.RequestOptions = {}) =>
  stripe.checkout.sessions.create(
    {
      mode: 'payment',
      line_items: [{ price_data: { currency: 'gbp', unit_amount: 4900, product_data: { name: 'TypeScript in depth' } }, quantity: 1 }],
      customer_email: 'learner@example.com',
      metadata: { courseId: 'course-1', learnerId: 'learner-1' },
      payment_intent_data: { metadata: { courseId: 'course-1' } },
      success_url: `${appOrigin}/courses/course-1?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${appOrigin}/courses/course-1`,
      ...params,
    },
    { ...on(account), ...options },
  );

const pay = (sessionUrl: string) => fetch(`${sessionUrl}/pay`, { method: 'POST', redirect: 'manual' });

/** A paid course sale on `account`: the session, its payment intent and its charge. */
const paidSale = async (account: string) => {
  const session = await sellCourse(account);
  expect((await pay(session.url!)).status).toBe(303);
  const paid = await stripe.checkout.sessions.retrieve(session.id, {}, on(account));
  const intent = await stripe.paymentIntents.retrieve(paid.payment_intent as string, {}, on(account));
  return { session: paid, intent, chargeId: intent.latest_charge as string };
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
  stripe = clientFor(standIn.url);
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

describe('Stripe Connect accounts and onboarding in the stand-in', () => {
  it('creates a Standard account that cannot take charges yet, once per idempotency key, and finds it again', async () => {
    const account = await stripe.accounts.create(
      { type: 'standard', email: 'creator@example.com', metadata: { userId: 'creator-1' } },
      { idempotencyKey: 'connect-account:creator-1' },
    );
    expect(account.id).toMatch(/^acct_/);
    expect(account).toMatchObject({
      object: 'account',
      type: 'standard',
      email: 'creator@example.com',
      country: 'GB',
      default_currency: 'gbp',
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      metadata: { userId: 'creator-1' },
      requirements: { errors: [], disabled_reason: 'requirements.past_due' },
    });
    expect(account.created).toBeGreaterThan(0);
    expect(account.requirements?.currently_due).toEqual(expect.arrayContaining(['business_profile.url', 'external_account', 'tos_acceptance.date']));
    expect(account.requirements?.eventually_due).toEqual(expect.arrayContaining(['external_account']));

    const again = await stripe.accounts.create(
      { type: 'standard', email: 'creator@example.com', metadata: { userId: 'creator-1' } },
      { idempotencyKey: 'connect-account:creator-1' },
    );
    expect(again.id).toBe(account.id);
    expect(await stripe.accounts.retrieve(account.id)).toMatchObject({ id: account.id, email: 'creator@example.com' });
    expect((await stripe.accounts.list({ limit: 100 })).data.map((item) => item.id)).toContain(account.id);
    expect(Object.values(standIn.state.accounts).filter((item) => item.metadata.userId === 'creator-1')).toHaveLength(1);

    await expect(stripe.accounts.retrieve('acct_unknown')).rejects.toMatchObject({
      type: 'StripePermissionError',
      statusCode: 403,
      code: 'account_invalid',
    });
  });

  it('onboards through a single-use link: Complete onboarding readies the account and tells only the Connect endpoint', async () => {
    const account = await newAccount('onboard@example.com');
    const link = await onboardingLink(account.id);
    expect(link).toMatchObject({ object: 'account_link' });
    expect(link.expires_at).toBe(link.created + 300);
    expect(link.url).toMatch(new RegExp(`^${standIn.url}/connect/onboarding/[A-Za-z0-9]+$`));

    const page = await fetch(link.url, { redirect: 'manual' });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; form-action *; base-uri 'none'; frame-ancestors 'none'",
    );
    const html = await page.text();
    expect(html).toContain(account.id);
    expect(html).toContain('onboard@example.com');
    expect(html).toMatch(/<button[^>]*>Complete onboarding<\/button>/);
    expect(html).toMatch(/<button[^>]*>Save and return later<\/button>/);

    // Opening the link used it: a reload goes to refresh_url, while the form of the page shown still works.
    const reloaded = await fetch(link.url, { redirect: 'manual' });
    expect(reloaded.status).toBe(303);
    expect(reloaded.headers.get('location')).toBe(`${appOrigin}/creator/payouts?refresh=1`);

    const done = await submit(formAction(html, link.url, 'Complete onboarding'));
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`${appOrigin}/creator/payouts?done=1`);

    const ready = await stripe.accounts.retrieve(account.id);
    expect(ready).toMatchObject({ details_submitted: true, charges_enabled: true, payouts_enabled: true });
    expect(ready.requirements).toMatchObject({ currently_due: [], eventually_due: [], past_due: [], disabled_reason: null });

    const [updated, ...others] = connectEvents();
    expect(others).toEqual([]);
    expect(updated).toMatchObject({ type: 'account.updated', account: account.id });
    expect(updated!.data.object).toMatchObject({ id: account.id, charges_enabled: true, details_submitted: true });
    expect(updated!.data.previous_attributes).toMatchObject({ charges_enabled: false });
    // Signed with the Connect endpoint's secret, not the platform's; and never sent to the platform endpoint.
    const { body, signature } = connect.received[0]!;
    expect(() => Stripe.webhooks.constructEvent(body, signature, platformSecret)).toThrow();
    await standIn.webhooksIdle();
    expect(platform.received).toEqual([]);

    // The link is used up: opening it again, or sending its form again, goes to refresh_url and changes nothing.
    expect((await fetch(link.url, { redirect: 'manual' })).headers.get('location')).toBe(`${appOrigin}/creator/payouts?refresh=1`);
    const resent = await submit(formAction(html, link.url, 'Save and return later'));
    expect(resent.headers.get('location')).toBe(`${appOrigin}/creator/payouts?refresh=1`);
    expect((await stripe.accounts.retrieve(account.id)).charges_enabled).toBe(true);
    expect(connectEvents()).toHaveLength(1);
  });

  it('leaves the account pending on Save and return later, until the ready control finishes it', async () => {
    const account = await newAccount('later@example.com');
    const link = await onboardingLink(account.id);
    const html = await (await fetch(link.url)).text();
    const later = await submit(formAction(html, link.url, 'Save and return later'));
    expect(later.headers.get('location')).toBe(`${appOrigin}/creator/payouts?done=1`);

    const pending = await stripe.accounts.retrieve(account.id);
    expect(pending).toMatchObject({ details_submitted: true, charges_enabled: false, payouts_enabled: false });
    expect(pending.requirements?.currently_due).toContain('external_account');
    expect(connectEvents().map((event) => [event.type, event.account, (event.data.object as Stripe.Account).details_submitted])).toEqual([
      ['account.updated', account.id, true],
    ]);

    const ready = await control(`accounts/${account.id}/ready`);
    expect(ready.status).toBe(200);
    expect(ready.body.events.map((event) => event.type)).toEqual(['account.updated']);
    expect(await stripe.accounts.retrieve(account.id)).toMatchObject({ charges_enabled: true, payouts_enabled: true });
    expect(connectEvents('account.updated').map((event) => (event.data.object as Stripe.Account).charges_enabled)).toEqual([false, true]);
    expect((await control('accounts/acct_nope/ready')).status).toBe(404);
  });

  it('sends the browser of an expired link to refresh_url', async () => {
    const account = await newAccount('slow@example.com');
    const link = await onboardingLink(account.id);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 301 * 1000);
      const opened = await fetch(link.url, { redirect: 'manual' });
      expect(opened.status).toBe(303);
      expect(opened.headers.get('location')).toBe(`${appOrigin}/creator/payouts?refresh=1`);
    } finally {
      vi.useRealTimers();
    }
    expect((await stripe.accounts.retrieve(account.id)).details_submitted).toBe(false);
  });

  it('refuses a Stripe-Account header naming an account the platform has no access to', async () => {
    await expect(sellCourse('acct_not_connected')).rejects.toMatchObject({
      type: 'StripePermissionError',
      statusCode: 403,
      code: 'account_invalid',
      message: expect.stringContaining("does not have access to account 'acct_not_connected'"),
    });
  });
});

describe('direct charges on a connected account', () => {
  it('refuses checkout until the account can take charges, then Pay completes it with a payment intent, a charge and Connect events', async () => {
    const account = await newAccount('seller@example.com');
    await expect(sellCourse(account.id)).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
      message: expect.stringContaining('cannot currently make charges'),
    });
    await control(`accounts/${account.id}/ready`);
    connect.clear();

    const session = await sellCourse(account.id);
    expect(session).toMatchObject({ object: 'checkout.session', status: 'open', mode: 'payment', amount_total: 4900, currency: 'gbp' });
    const page = await (await fetch(session.url!)).text();
    expect(page).toContain('TypeScript in depth');
    expect(page).toContain('£49.00');
    expect(page).toContain('Sold by seller@example.com');

    const paid = await pay(session.url!);
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`${appOrigin}/courses/course-1?session_id=${session.id}`);

    const completed = await stripe.checkout.sessions.retrieve(session.id, {}, on(account.id));
    expect(completed).toMatchObject({ status: 'complete', payment_status: 'paid' });
    const intent = await stripe.paymentIntents.retrieve(completed.payment_intent as string, {}, on(account.id));
    expect(intent).toMatchObject({
      object: 'payment_intent',
      amount: 4900,
      currency: 'gbp',
      status: 'succeeded',
      application_fee_amount: null,
      metadata: { courseId: 'course-1' },
    });
    const charge = await stripe.charges.retrieve(intent.latest_charge as string, {}, on(account.id));
    expect(charge).toMatchObject({ object: 'charge', amount: 4900, paid: true, refunded: false, payment_intent: intent.id, application_fee_amount: null });

    const events = connectEvents();
    expect(events.map((event) => [event.type, event.account])).toEqual([
      ['charge.succeeded', account.id],
      ['checkout.session.completed', account.id],
    ]);
    expect(events[1]!.data.object).toMatchObject({
      id: session.id,
      payment_intent: intent.id,
      amount_total: 4900,
      amount_subtotal: 4900,
      total_details: { amount_discount: 0 },
      customer_details: { email: 'learner@example.com' },
      metadata: { courseId: 'course-1', learnerId: 'learner-1' },
    });
    // The stand-in's bookkeeping never shows, in events or in answers.
    for (const shown of [events[1]!.data.object, completed]) {
      expect(shown).not.toHaveProperty('connect_data');
      expect(shown).not.toHaveProperty('line_items_data');
    }
    await standIn.webhooksIdle();
    expect(platform.received).toEqual([]);

    // A second Pay lands on the success page without charging again.
    expect((await pay(session.url!)).status).toBe(303);
    expect(connectEvents('charge.succeeded')).toHaveLength(1);
  });

  it('asks for the buyer\'s email on the hosted page when the session has none, as Stripe does: required, then on customer_details', async () => {
    const account = await readyAccount('asks@example.com');
    const session = await sellCourse(account.id, { customer_email: undefined });
    const page = await (await fetch(session.url!)).text();
    expect(page).toMatch(/<label for="email">Email<\/label>\s*<input id="email" name="email" type="email" autocomplete="email" required/);
    // Pay without it (a client that skips the browser's own check): the page again, saying why, nothing charged.
    const refused = await submit(formAction(page, session.url!, 'Pay'));
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('Enter your email address');
    expect((await stripe.checkout.sessions.retrieve(session.id, {}, on(account.id))).status).toBe('open');
    const typed = await fetch(`${session.url!}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'email=typed%40example.com', redirect: 'manual' });
    expect(typed.status).toBe(303);
    const paid = await stripe.checkout.sessions.retrieve(session.id, {}, on(account.id));
    expect(paid).toMatchObject({ status: 'complete', customer_email: null, customer_details: { email: 'typed@example.com' } });
    const completed = connectEvents('checkout.session.completed').find((event) => (event.data.object as { id: string }).id === session.id);
    expect(completed?.data.object).toMatchObject({ customer_details: { email: 'typed@example.com' } });
    // A session made with an email shows it and asks for nothing.
    const given = await sellCourse(account.id);
    expect(await (await fetch(given.url!)).text()).not.toContain('name="email"');
  });

  it('records an application fee only when the platform asks for one', async () => {
    const account = await readyAccount('fee@example.com');
    const session = await sellCourse(account.id, { payment_intent_data: { application_fee_amount: 490, metadata: { courseId: 'course-1' } } });
    await pay(session.url!);
    const intentId = (await stripe.checkout.sessions.retrieve(session.id, {}, on(account.id))).payment_intent as string;
    const intent = await stripe.paymentIntents.retrieve(intentId, {}, on(account.id));
    expect(intent.application_fee_amount).toBe(490);
    expect((await stripe.charges.retrieve(intent.latest_charge as string, {}, on(account.id))).application_fee_amount).toBe(490);
  });

  it("scopes objects to their account: without its header, or with another account's, they do not exist", async () => {
    const account = await readyAccount('owner@example.com');
    const other = await readyAccount('other@example.com');
    const { session, intent, chargeId } = await paidSale(account.id);

    for (const options of [{}, on(other.id)]) {
      await expect(stripe.checkout.sessions.retrieve(session.id, {}, options)).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
      await expect(stripe.paymentIntents.retrieve(intent.id, {}, options)).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
      await expect(stripe.charges.retrieve(chargeId, {}, options)).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing' });
      await expect(stripe.refunds.create({ payment_intent: intent.id }, options)).rejects.toMatchObject({ statusCode: 400, code: 'resource_missing' });
    }
    expect((await stripe.checkout.sessions.list({ limit: 100 })).data.map((item) => item.id)).not.toContain(session.id);
    const platformEvents = await stripe.events.list({ limit: 100 });
    expect(platformEvents.data.filter((event) => event.account)).toEqual([]);
    const accountEvents = await stripe.events.list({ limit: 100 }, on(account.id));
    expect(accountEvents.data.map((event) => event.type)).toEqual(expect.arrayContaining(['checkout.session.completed', 'charge.succeeded']));
    expect(accountEvents.data.every((event) => event.account === account.id)).toBe(true);

    // Idempotency keys are per account too.
    const mine = await sellCourse(account.id, {}, { idempotencyKey: 'sale-1' });
    const theirs = await sellCourse(other.id, {}, { idempotencyKey: 'sale-1' });
    expect(theirs.id).not.toBe(mine.id);
    expect((await sellCourse(account.id, {}, { idempotencyKey: 'sale-1' })).id).toBe(mine.id);
  });

  it('expires a connected session with a Connect checkout.session.expired; its page then takes no payment', async () => {
    const account = await readyAccount('expire@example.com');
    const session = await sellCourse(account.id);
    await expect(stripe.checkout.sessions.expire(session.id)).rejects.toMatchObject({ statusCode: 404 });
    const expired = await stripe.checkout.sessions.expire(session.id, {}, on(account.id));
    expect(expired).toMatchObject({ status: 'expired', url: null });
    await standIn.webhooksIdle();
    expect(connectEvents('checkout.session.expired').map((event) => event.account)).toEqual([account.id]);
    expect((await pay(session.url!)).status).toBe(409);
    await standIn.webhooksIdle();
    expect(connectEvents('charge.succeeded')).toEqual([]);
  });
});

describe('coupons and promotion codes on a connected account', () => {
  it('takes a promotion code off the total, and refuses inactive and expired codes as Stripe does', async () => {
    const account = await readyAccount('promo@example.com');
    const coupon = await stripe.coupons.create({ percent_off: 20, duration: 'once', metadata: { courseId: 'course-1' } }, on(account.id));
    expect(coupon).toMatchObject({ object: 'coupon', percent_off: 20, duration: 'once', times_redeemed: 0, valid: true });
    const code = await stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: coupon.id }, code: 'LAUNCH20', max_redemptions: 10 }, on(account.id));
    expect(code).toMatchObject({ object: 'promotion_code', code: 'LAUNCH20', active: true, max_redemptions: 10, times_redeemed: 0, promotion: { coupon: coupon.id } });
    expect((await stripe.promotionCodes.list({ code: 'launch20' }, on(account.id))).data.map((item) => item.id)).toEqual([code.id]);
    expect((await stripe.promotionCodes.list({ code: 'LAUNCH20' })).data).toEqual([]);

    const session = await sellCourse(account.id, { discounts: [{ promotion_code: code.id }] });
    expect(session).toMatchObject({ amount_subtotal: 4900, amount_total: 3920, total_details: { amount_discount: 980 } });
    expect(session.discounts).toEqual([{ coupon: null, promotion_code: code.id }]);
    const page = await (await fetch(session.url!)).text();
    expect(page).toContain('£39.20');
    expect(page).toContain('-£9.80 (LAUNCH20)');
    await pay(session.url!);
    const intentId = (await stripe.checkout.sessions.retrieve(session.id, {}, on(account.id))).payment_intent as string;
    expect((await stripe.paymentIntents.retrieve(intentId, {}, on(account.id))).amount).toBe(3920);
    expect((await stripe.promotionCodes.retrieve(code.id, {}, on(account.id))).times_redeemed).toBe(1);
    expect((await stripe.coupons.retrieve(coupon.id, {}, on(account.id))).times_redeemed).toBe(1);

    const fiver = await stripe.coupons.create({ amount_off: 1000, currency: 'gbp', duration: 'once', id: 'FIVER' }, on(account.id));
    expect((await sellCourse(account.id, { discounts: [{ coupon: fiver.id }] })).amount_total).toBe(3900);

    await stripe.promotionCodes.update(code.id, { active: false }, on(account.id));
    await expect(sellCourse(account.id, { discounts: [{ promotion_code: code.id }] })).rejects.toMatchObject({
      statusCode: 400,
      param: 'discounts[0][promotion_code]',
      message: expect.stringContaining('inactive'),
    });

    const brief = await stripe.promotionCodes.create(
      { promotion: { type: 'coupon', coupon: coupon.id }, code: 'BRIEF', expires_at: nowSeconds() + 60 },
      on(account.id),
    );
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 120 * 1000);
      await expect(sellCourse(account.id, { discounts: [{ promotion_code: brief.id }] })).rejects.toMatchObject({
        statusCode: 400,
        message: expect.stringContaining('expired'),
      });
    } finally {
      vi.useRealTimers();
    }

    await stripe.coupons.del(coupon.id, {}, on(account.id));
    await expect(stripe.coupons.retrieve(coupon.id, {}, on(account.id))).rejects.toMatchObject({ statusCode: 404 });
  });

  it('never redeems a code beyond max_redemptions: of 20 concurrent checkouts with 5 redemptions left, 5 are paid with it', async () => {
    const account = await readyAccount('rush@example.com');
    const coupon = await stripe.coupons.create({ percent_off: 50, duration: 'once' }, on(account.id));
    const code = await stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: coupon.id }, code: 'EARLYBIRD', max_redemptions: 6 }, on(account.id));
    const first = await sellCourse(account.id, { discounts: [{ promotion_code: code.id }] });
    await pay(first.url!);
    expect((await stripe.promotionCodes.retrieve(code.id, {}, on(account.id))).times_redeemed).toBe(1);

    const sessions = await Promise.all(
      Array.from({ length: 20 }, (_, index) => sellCourse(account.id, { discounts: [{ promotion_code: code.id }], customer_email: `rush${index}@example.com` })),
    );
    const answers = await Promise.all(sessions.map(async (session) => ({ session, res: await pay(session.url!) })));
    const paid = answers.filter(({ res }) => res.status === 303);
    const refused = answers.filter(({ res }) => res.status !== 303);
    expect(paid).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const { res, session } of refused) {
      expect(res.status).toBe(409);
      const html = await res.text();
      expect(html).toContain('maximum number of redemptions');
      expect(html).toContain('Nothing was charged');
      expect(await stripe.checkout.sessions.retrieve(session.id, {}, on(account.id))).toMatchObject({ status: 'open', payment_status: 'unpaid', payment_intent: null });
    }
    expect((await stripe.promotionCodes.retrieve(code.id, {}, on(account.id))).times_redeemed).toBe(6);
    expect(await stripe.coupons.retrieve(coupon.id, {}, on(account.id))).toMatchObject({ times_redeemed: 6 });
    expect(connectEvents('checkout.session.completed')).toHaveLength(6);

    await expect(sellCourse(account.id, { discounts: [{ promotion_code: code.id }] })).rejects.toMatchObject({
      statusCode: 400,
      message: expect.stringContaining('maximum number of redemptions'),
    });
  });
});

describe('refunds and disputes on a connected account', () => {
  it('refunds through the API with one charge.refunded per refund, and refuses more than is left', async () => {
    const account = await readyAccount('refund@example.com');
    const { intent, chargeId } = await paidSale(account.id);
    connect.clear();

    const partial = await stripe.refunds.create({ payment_intent: intent.id, amount: 1000, metadata: { reason: 'partial' } }, on(account.id));
    expect(partial).toMatchObject({ object: 'refund', status: 'succeeded', amount: 1000, charge: chargeId, payment_intent: intent.id, metadata: { reason: 'partial' } });
    expect(partial.id).toMatch(/^re_/);
    expect(await stripe.charges.retrieve(chargeId, {}, on(account.id))).toMatchObject({ amount_refunded: 1000, refunded: false });
    await standIn.webhooksIdle();
    expect(connectEvents().map((event) => [event.type, event.account])).toEqual([
      ['charge.refunded', account.id],
      ['refund.created', account.id],
    ]);
    expect(connectEvents('charge.refunded')[0]!.data.object).toMatchObject({ id: chargeId, payment_intent: intent.id, amount_refunded: 1000, refunded: false });

    await expect(stripe.refunds.create({ payment_intent: intent.id, amount: 5000 }, on(account.id))).rejects.toMatchObject({
      statusCode: 400,
      param: 'amount',
      message: 'Refund amount (£50.00) is greater than unrefunded amount on charge (£39.00)',
    });
    const rest = await stripe.refunds.create({ charge: chargeId }, on(account.id));
    expect(rest.amount).toBe(3900);
    expect(await stripe.charges.retrieve(chargeId, {}, on(account.id))).toMatchObject({ amount_refunded: 4900, refunded: true });
    await expect(stripe.refunds.create({ payment_intent: intent.id }, on(account.id))).rejects.toMatchObject({
      statusCode: 400,
      code: 'charge_already_refunded',
    });
    await standIn.webhooksIdle();
    const refunded = connectEvents('charge.refunded');
    expect(refunded).toHaveLength(2);
    expect(refunded[1]!.data.object).toMatchObject({ amount_refunded: 4900, refunded: true });
    expect(connectEvents('refund.created')).toHaveLength(2);
  });

  it('opens a dispute with the test control: charge.dispute.created, after which the charge cannot be refunded', async () => {
    const account = await readyAccount('dispute@example.com');
    const { intent, chargeId } = await paidSale(account.id);
    connect.clear();

    const opened = await control(`charges/${chargeId}/dispute`);
    expect(opened.status).toBe(200);
    expect(opened.body.events.map((event) => event.type)).toEqual(['charge.dispute.created']);
    const [event] = connectEvents();
    expect(event).toMatchObject({ type: 'charge.dispute.created', account: account.id });
    expect(event!.data.object).toMatchObject({
      object: 'dispute',
      charge: chargeId,
      payment_intent: intent.id,
      amount: 4900,
      reason: 'fraudulent',
      status: 'needs_response',
    });
    expect((event!.data.object as Stripe.Dispute).id).toMatch(/^dp_/);
    expect((await stripe.charges.retrieve(chargeId, {}, on(account.id))).disputed).toBe(true);
    await expect(stripe.refunds.create({ charge: chargeId }, on(account.id))).rejects.toMatchObject({ statusCode: 400, code: 'charge_disputed' });
    expect((await control(`charges/${chargeId}/dispute`)).status).toBe(400);
    expect((await control('charges/ch_nope/dispute')).status).toBe(404);
  });
});

describe('Connect events and state', () => {
  it('lists Connect events in the stand-in log and redelivers one to the Connect endpoint', async () => {
    const account = await readyAccount('log@example.com');
    const log = (await (await fetch(`${standIn.url}/_stand-in/events?account=${account.id}`)).json()) as {
      data: { event: Stripe.Event; delivery: { state: string } | null }[];
    };
    expect(log.data.map(({ event, delivery }) => [event.type, event.account, delivery?.state])).toEqual([['account.updated', account.id, 'delivered']]);
    connect.clear();

    const res = await fetch(`${standIn.url}/_stand-in/events/${log.data[0]!.event.id}/redeliver`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(connectEvents().map((event) => event.id)).toEqual([log.data[0]!.event.id]);
    await standIn.webhooksIdle();
    expect(platform.received).toEqual([]);
  });

  it('only records Connect events when no Connect endpoint is configured', async () => {
    const quiet = await startStripeStandIn({
      port: 0,
      webhookUrl: platform.url,
      webhookSecret: platformSecret,
      logger: { info: () => undefined, warn: () => undefined },
    });
    try {
      const client = clientFor(quiet.url);
      const account = await client.accounts.create({ type: 'standard', email: 'quiet@example.com' });
      await fetch(`${quiet.url}/_stand-in/accounts/${account.id}/ready`, { method: 'POST' });
      await quiet.webhooksIdle();
      const events = Object.values(quiet.state.events);
      expect(events.map((event) => [event.type, event.account])).toEqual([['account.updated', account.id]]);
      expect(quiet.state.deliveries[events[0]!.id]).toBeUndefined();
      expect(platform.received).toEqual([]);
      expect((await fetch(`${quiet.url}/_stand-in/events/${events[0]!.id}/redeliver`, { method: 'POST' })).status).toBe(409);
    } finally {
      await quiet.stop();
    }
  });

  it('survives a save and a restart: accounts, open links, sessions and codes carry on', async () => {
    const account = await readyAccount('saved@example.com');
    const coupon = await stripe.coupons.create({ percent_off: 10, duration: 'once' }, on(account.id));
    const code = await stripe.promotionCodes.create({ promotion: { type: 'coupon', coupon: coupon.id }, code: 'SAVED10' }, on(account.id));
    const session = await sellCourse(account.id, { discounts: [{ promotion_code: code.id }] });
    const pendingAccount = await newAccount('pending@example.com');
    const link = await onboardingLink(pendingAccount.id);

    const dir = mkdtempSync(join(tmpdir(), 'stripe-connect-state-'));
    try {
      const file = join(dir, 'stripe-stand-in.json');
      const saving = savedState(file, () => undefined);
      saving.track(standIn.state);
      saving.flush();
      const restarted = await startStripeStandIn({
        port: 0,
        webhookUrl: platform.url,
        webhookSecret: platformSecret,
        connectWebhookUrl: connect.url,
        connectWebhookSecret: connectSecret,
        state: savedState(file, () => undefined).load(),
        logger: { info: () => undefined, warn: () => undefined },
      });
      try {
        const client = clientFor(restarted.url);
        expect(await client.accounts.retrieve(account.id)).toMatchObject({ charges_enabled: true });
        expect((await client.promotionCodes.list({ code: 'SAVED10' }, on(account.id))).data.map((item) => item.id)).toEqual([code.id]);
        expect((await client.checkout.sessions.retrieve(session.id, {}, on(account.id))).amount_total).toBe(4410);

        const state = (await (await fetch(`${restarted.url}/_stand-in/state`)).json()) as { accounts: Record<string, unknown>; connected: Record<string, { checkoutSessions: Record<string, unknown> }> };
        expect(Object.keys(state.accounts)).toContain(pendingAccount.id);
        expect(Object.keys(state.connected[account.id]!.checkoutSessions)).toContain(session.id);

        connect.clear();
        expect((await pay(`${restarted.url}/checkout/${session.id}`)).status).toBe(303);
        expect(connectEvents('checkout.session.completed').map((event) => event.account)).toEqual([account.id]);
        const token = new URL(link.url).pathname.split('/').pop();
        expect((await fetch(`${restarted.url}/connect/onboarding/${token}`, { redirect: 'manual' })).status).toBe(200);
      } finally {
        await restarted.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
