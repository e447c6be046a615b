import { GetCommand } from '@aws-sdk/lib-dynamodb';
import Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { orderKeys } from '#data/orders.ts';
import { payoutKeys } from '#data/payouts.ts';
import { userKeys } from '#data/users.ts';
import { signed } from './billing-support.ts';
import { firstSignIn, mailTo } from './mail-support.ts';
import { accountWithRole, api, dynamo, eventually, outputs, postRaw, streamsCaughtUp, uniqueEmail } from './support.ts';

/**
 * A course sold on its creator's own Stripe account, end to end: the gateway, the handlers, DynamoDB Local, the Stripe
 * stand-in's Connect (hosted checkout, signed Connect webhooks), cognito-local and SES local.
 */
type Account = Awaited<ReturnType<typeof accountWithRole>>;
let creator: Account;
let accountId: string;
let courseId: string;

const origin = () => outputs().WebUrl;
const checkoutBody = (extra: Record<string, unknown> = {}) => ({ successUrl: `${origin()}/c/${courseId}?purchase=success`, cancelUrl: `${origin()}/c/${courseId}`, ...extra });
const checkout = (extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  api('POST', `/api/public/courses/${courseId}/checkout`, { body: checkoutBody(extra), headers });

const stripe = () => new Stripe('sk_test_local', { telemetry: false, host: new URL(outputs().StripeApiUrl).hostname, port: Number(new URL(outputs().StripeApiUrl).port), protocol: 'http' });

const item = async (key: { pk: string; sk: string }) => (await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: key, ConsistentRead: true }))).Item;

/** Pays a hosted checkout on the stand-in as the buyer's browser would. */
const pay = async (url: string) => {
  const res = await fetch(`${url}/pay`, { method: 'POST', redirect: 'manual' });
  expect(res.status).toBe(303);
  return res.headers.get('location');
};


beforeAll(async () => {
  creator = await accountWithRole('creator', 'seller');
  const created = await api('POST', '/api/courses', { token: creator.token, body: { title: 'Sourdough at home', description: 'Bake real bread.' } });
  courseId = created.body.id as string;
  await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Starter', kind: 'text', body: '<p>Flour and water.</p>' } });
  await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published', priceAmount: 2900 } });
});

describe('selling a course on the creator’s own Stripe account', () => {
  it('is PAYOUTS_NOT_READY (409) until the creator can take payments, and 404 for a draft or unpriced course', async () => {
    const res = await checkout();
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('PAYOUTS_NOT_READY');
    const draft = await api('POST', '/api/courses', { token: creator.token, body: { title: 'Not yet' } });
    const notForSale = await api('POST', `/api/public/courses/${draft.body.id}/checkout`, { body: checkoutBody() });
    expect(notForSale.status).toBe(404);
  });

  it('a visitor buys it: the money is charged on the creator’s account with no fee, a new learner is invited, enrolled and can sign in', async () => {
    await api('POST', '/api/creator/payouts/connect', { token: creator.token, body: { returnUrl: `${origin()}/r`, refreshUrl: `${origin()}/f` } });
    accountId = (await item(payoutKeys.account(creator.id)))!['accountId'] as string;
    await fetch(`${outputs().StripeApiUrl}/_stand-in/accounts/${accountId}/ready`, { method: 'POST' });
    await eventually(() => api('GET', '/api/creator/payouts', { token: creator.token }), (r) => r.body.status === 'enabled');

    const buyer = uniqueEmail('buyer');
    const key = `buy-${Date.now()}`;
    // A client that sends nothing but the contract's fields is refused an unknown coupon (400 COUPON_INVALID) and seats (400).
    expect((await checkout({ couponCode: 'NOPE10', email: uniqueEmail('nope') })).body.error.code).toBe('COUPON_INVALID');
    expect((await checkout({ seats: 5 })).status).toBe(400);

    const started = await checkout({ email: buyer }, { 'idempotency-key': key });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    // The same request again: the same page.
    expect((await checkout({ email: buyer }, { 'idempotency-key': key })).body.url).toBe(started.body.url);

    const sessionId = new URL(started.body.url as string).pathname.split('/').pop()!;
    const session = await stripe().checkout.sessions.retrieve(sessionId, {}, { stripeAccount: accountId });
    expect(session).toMatchObject({ amount_total: 2900, currency: 'gbp', customer_email: buyer, mode: 'payment' });
    const orderId = session.metadata?.['orderId'] as string;
    expect(await item(orderKeys.order(orderId))).toMatchObject({ status: 'pending', price: 2900, creatorId: creator.id, accountId });

    expect(await pay(started.body.url as string)).toContain(`/c/${courseId}?purchase=success`);
    const paid = await eventually(() => item(orderKeys.order(orderId)), (o) => o?.['status'] === 'paid');
    expect(paid).toMatchObject({ status: 'paid', amount: 2900, discount: 0, buyerEmail: buyer });

    const intent = await stripe().paymentIntents.retrieve(paid!['paymentIntentId'] as string, {}, { stripeAccount: accountId });
    expect(intent).toMatchObject({ amount: 2900, status: 'succeeded', application_fee_amount: null });

    const invitation = await eventually(() => mailTo(buyer), (m) => m !== undefined);
    expect(invitation?.subject).toBe('Your purchase on Course Platform');
    const temporaryPassword = /Temporary password: (\S+)/.exec(invitation?.body.text ?? '')?.[1];
    const token = await firstSignIn(buyer, temporaryPassword!, 'MyOwnPassw0rd!');
    // The queued work invites the buyer as it makes the account, then enrols them (core/sales/buyer-account.ts): a
    // sign-in as fast as this one, on a loaded machine, can come between the two.
    const courses = await eventually(() => api('GET', '/api/learner/courses', { token }), (r) => r.body.items?.length > 0);
    expect(courses.body.items.map((c: { courseId: string }) => c.courseId)).toEqual([courseId]);
  });

  it('enrols once however often Stripe delivers the payment', async () => {
    const buyer = uniqueEmail('again');
    const started = await checkout({ email: buyer });
    await pay(started.body.url as string);
    const sessionId = new URL(started.body.url as string).pathname.split('/').pop()!;
    const orderId = (await stripe().checkout.sessions.retrieve(sessionId, {}, { stripeAccount: accountId })).metadata?.['orderId'] as string;
    await eventually(() => item(orderKeys.order(orderId)), (o) => o?.['status'] === 'paid');

    const listed = `${outputs().StripeApiUrl}/_stand-in/events?account=${accountId}&type=checkout.session.completed`;
    const events = (await (await fetch(listed)).json()) as { data: { event: { id: string; data: { object: { id: string } } } }[] };
    const completed = events.data.map((e) => e.event).find((e) => e.data.object.id === sessionId)!;
    for (let i = 0; i < 3; i++) expect((await fetch(`${outputs().StripeApiUrl}/_stand-in/events/${completed.id}/redeliver`, { method: 'POST' })).ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    // The month's sales are sharded (data/sharded-counters.ts): their figures are the sum of the shards.
    const shards = await Promise.all(orderKeys.month(creator.id, new Date().toISOString()).readKeys().map(item));
    const stats = { sales: shards.reduce((sum, s) => sum + Number(s?.['sales'] ?? 0), 0), revenue: shards.reduce((sum, s) => sum + Number(s?.['revenue'] ?? 0), 0) };
    const learnerId = (await item(orderKeys.order(orderId)))!['learnerId'] as string;
    expect(await item({ pk: `COURSE#${courseId}`, sk: `ENROLL#${learnerId}` })).toMatchObject({ status: 'active' });
    // Two sales so far today in this suite's course: the first test's and this one, each counted once.
    expect(stats).toMatchObject({ sales: 2, revenue: 5800 });
  });

  it("lists the sales, refunds one on the creator's account (the buyer loses access), and counts it all in the analytics", async () => {
    const sales = await api('GET', '/api/sales', { token: creator.token });
    expect(sales.status).toBe(200);
    expect(sales.body.items).toHaveLength(2);
    expect(sales.body.items[0]).toMatchObject({ courseId, courseTitle: 'Sourdough at home', amount: 2900, discount: 0, currency: 'gbp', status: 'paid', platformFee: 0 });
    const sale = sales.body.items[0] as { id: string; buyerEmail: string };

    // Another creator: 404, nothing refunded.
    const other = await accountWithRole('creator', 'sales-other');
    expect((await api('POST', `/api/sales/${sale.id}/refund`, { token: other.token })).status).toBe(404);
    expect((await api('GET', '/api/sales', { token: other.token })).body.items).toEqual([]);

    const refunded = await api('POST', `/api/sales/${sale.id}/refund`, { token: creator.token });
    expect(refunded.status).toBe(200);
    expect(refunded.body).toMatchObject({ id: sale.id, status: 'refunded' });
    expect((await api('POST', `/api/sales/${sale.id}/refund`, { token: creator.token })).status).toBe(409);
    const order = await item(orderKeys.order(sale.id));
    const refunds = await stripe().refunds.list({ payment_intent: order!['paymentIntentId'] as string }, { stripeAccount: accountId });
    expect(refunds.data.map((r) => [r.amount, r.status])).toEqual([[2900, 'succeeded']]);
    expect(await item({ pk: `COURSE#${courseId}`, sk: `ENROLL#${order!['learnerId']}` })).toMatchObject({ status: 'removed' });

    // Stripe's charge.refunded comes back: nothing more happens.
    await new Promise((resolve) => setTimeout(resolve, 500));
    // The sales figures come from the table's stream (decision 0040): read once the aggregator has the refund's change.
    await streamsCaughtUp();
    const analytics = await api('GET', '/api/creator/analytics?days=30', { token: creator.token });
    expect(analytics.status).toBe(200);
    expect(analytics.body).toMatchObject({ currency: 'gbp', days: 30, revenue: 2900, sales: 2, refunds: 1 });
    expect(analytics.body.series).toHaveLength(30);
    expect(analytics.body.byCourse).toEqual([{ courseId, title: 'Sourdough at home', revenue: 2900, sales: 2 }]);
    // The funnel: the page's view below counts (the page itself is cached, its view beacon counts), and the two
    // checkouts started so far (a retry with its key is the same one).
    expect((await api('GET', `/api/public/courses/${courseId}`)).status).toBe(200);
    expect((await api('POST', `/api/public/courses/${courseId}/views`)).status).toBe(204);
    expect((await api('GET', '/api/creator/analytics?days=30', { token: creator.token })).body.funnel).toEqual({ views: 1, checkouts: 2, paid: 2 });
    expect((await api('GET', '/api/creator/analytics?days=7', { token: creator.token })).status).toBe(400);
    expect((await api('GET', '/api/creator/stats', { token: creator.token })).body.revenuePence).toBe(2900);
  });

  it('a dispute opened on Stripe revokes the sale once', async () => {
    const remaining = (await api('GET', '/api/sales', { token: creator.token })).body.items.find((s: { status: string }) => s.status === 'paid') as { id: string };
    const order = await item(orderKeys.order(remaining.id));
    const intent = await stripe().paymentIntents.retrieve(order!['paymentIntentId'] as string, {}, { stripeAccount: accountId });
    const disputed = await fetch(`${outputs().StripeApiUrl}/_stand-in/charges/${String(intent.latest_charge)}/dispute`, { method: 'POST' });
    expect(disputed.status).toBe(200);
    const after = await eventually(() => item(orderKeys.order(remaining.id)), (o) => o?.['status'] === 'disputed');
    expect(after?.['status']).toBe('disputed');
    expect(await item({ pk: `COURSE#${courseId}`, sk: `ENROLL#${order!['learnerId']}` })).toMatchObject({ status: 'removed' });
    // Through the table's stream (decision 0040).
    await streamsCaughtUp();
    const analytics = await api('GET', '/api/creator/analytics?days=30', { token: creator.token });
    expect(analytics.body).toMatchObject({ revenue: 0, sales: 2, refunds: 2 });
  });

  it('answers the same whoever the email belongs to (an admin, a leader, a learner enrolled already, nobody), and resolves it after the payment, privately', async () => {
    const enrolled = uniqueEmail('enrolled');
    const first = await checkout({ email: enrolled });
    await pay(first.body.url as string);
    const firstOrder = (await stripe().checkout.sessions.retrieve(new URL(first.body.url as string).pathname.split('/').pop()!, {}, { stripeAccount: accountId })).metadata?.['orderId'] as string;
    await eventually(() => item(orderKeys.order(firstOrder)), (o) => o?.['status'] === 'paid');
    const [admin, leader] = [await accountWithRole('admin', 'same-answer'), await accountWithRole('leader', 'same-answer')];
    const emails = { admin: admin.email, leader: leader.email, enrolled, unknown: uniqueEmail('unknown') };

    const answers = Object.fromEntries(await Promise.all(Object.entries(emails).map(async ([who, email]) => [who, await checkout({ email })] as const)));
    const shape = (res: { status: number; body: Record<string, unknown> }) => ({ status: res.status, keys: Object.keys(res.body), url: String(res.body['url']).replace(/cs_[A-Za-z0-9_]+$/, 'cs_*') });
    expect(shape(answers['admin']!)).toEqual({ status: 200, keys: ['url'], url: expect.stringMatching(/\/checkout\/cs_\*$/) });
    for (const who of ['leader', 'enrolled', 'unknown']) expect(shape(answers[who]!), who).toEqual(shape(answers['admin']!));

    // Paid: the unknown email gets the course; the others are refunded in full and told why, by email only.
    const orderOf = async (who: string) =>
      (await stripe().checkout.sessions.retrieve(new URL(answers[who]!.body['url'] as string).pathname.split('/').pop()!, {}, { stripeAccount: accountId })).metadata?.['orderId'] as string;
    for (const who of Object.keys(emails)) await pay(answers[who]!.body['url'] as string);
    expect((await eventually(async () => item(orderKeys.order(await orderOf('unknown'))), (o) => o?.['status'] === 'paid'))?.['status']).toBe('paid');
    for (const [who, why] of [['admin', 'does not take courses'], ['leader', 'does not take courses'], ['enrolled', 'enrolled in this course already']] as const) {
      const order = await eventually(async () => item(orderKeys.order(await orderOf(who))), (o) => o?.['status'] === 'refunded');
      expect(order, who).toMatchObject({ status: 'refunded', unfulfilled: expect.any(String), buyerEmail: emails[who] });
      const refunds = await stripe().refunds.list({ payment_intent: order!['paymentIntentId'] as string }, { stripeAccount: accountId });
      expect(refunds.data.map((r) => [r.amount, r.status]), who).toEqual([[2900, 'succeeded']]);
      const notice = await eventually(() => mailTo(emails[who]), (m) => m?.subject === 'Course Platform: your payment was refunded');
      expect(notice?.body.text, who).toContain(why);
    }
    // The learner enrolled before keeps their place; the sales list shows the three as refunded.
    const enrolledId = (await item(orderKeys.order(firstOrder)))!['learnerId'] as string;
    expect(await item({ pk: `COURSE#${courseId}`, sk: `ENROLL#${enrolledId}` })).toMatchObject({ status: 'active' });
    const sales = (await api('GET', '/api/sales', { token: creator.token })).body.items as { buyerEmail: string; status: string }[];
    for (const who of ['admin', 'leader', 'enrolled'] as const) expect(sales.filter((s) => s.buyerEmail === emails[who]).map((s) => s.status), who).toContain('refunded');
  });

  it('takes the email typed on the hosted page when the checkout had none (as Stripe asks for it): the buyer gets the course', async () => {
    const buyer = uniqueEmail('typed');
    const started = await checkout();
    expect(started.status).toBe(200);
    const page = await (await fetch(started.body.url as string)).text();
    expect(page).toContain('name="email"');
    expect((await fetch(`${started.body.url as string}/pay`, { method: 'POST', redirect: 'manual' })).status, 'Pay without the email').toBe(400);
    const paid = await fetch(`${started.body.url as string}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email: buyer }).toString(), redirect: 'manual' });
    expect(paid.status).toBe(303);
    const orderId = (await stripe().checkout.sessions.retrieve(new URL(started.body.url as string).pathname.split('/').pop()!, {}, { stripeAccount: accountId })).metadata?.['orderId'] as string;
    // Paid by the webhook; the new buyer's account and enrolment follow from the queue (the sender job it starts).
    const order = await eventually(() => item(orderKeys.order(orderId)), (o) => o?.['status'] === 'paid' && Boolean(o['learnerId']));
    expect(order).toMatchObject({ status: 'paid', buyerEmail: buyer });
    expect(await item({ pk: `COURSE#${courseId}`, sk: `ENROLL#${order!['learnerId']}` })).toMatchObject({ status: 'active' });
    expect((await eventually(() => mailTo(buyer), (m) => m !== undefined))?.subject).toBe('Your purchase on Course Platform');
  });

  describe('payment events in any order (signed Connect events, as Stripe may send them)', () => {
    let n = 0;
    /** A pending order of a new buyer, and its two events: the payment and its refund (or dispute). */
    const pendingWithEvents = async (to: 'refunded' | 'disputed') => {
      const buyer = uniqueEmail('order');
      const started = await checkout({ email: buyer });
      const sessionId = new URL(started.body.url as string).pathname.split('/').pop()!;
      const orderId = (await stripe().checkout.sessions.retrieve(sessionId, {}, { stripeAccount: accountId })).metadata?.['orderId'] as string;
      const intent = `pi_order_${Date.now()}_${++n}`;
      const event = (type: string, object: object) => ({ id: `evt_order_${Date.now()}_${++n}`, object: 'event', type, account: accountId, created: Math.floor(Date.now() / 1000), livemode: false, data: { object } });
      const payment = event('checkout.session.completed', {
        id: sessionId,
        object: 'checkout.session',
        payment_status: 'paid',
        amount_total: 2900,
        total_details: { amount_discount: 0 },
        customer_email: buyer,
        customer_details: { email: buyer },
        payment_intent: intent,
        metadata: { orderId, courseId },
      });
      const reversal =
        to === 'refunded'
          ? event('charge.refunded', { id: `ch_${n}`, object: 'charge', payment_intent: intent, refunded: true })
          : event('charge.dispute.created', { id: `dp_${n}`, object: 'dispute', payment_intent: intent });
      return { orderId, payment, reversal };
    };
    const deliver = async (event: object) => {
      const { payload, header } = signed(event, { secret: outputs().StripeConnectWebhookSecret });
      return postRaw('/api/webhooks/stripe-connect', payload, { 'content-type': 'application/json', 'stripe-signature': header });
    };
    const enrolmentOf = async (orderId: string) => {
      const order = await item(orderKeys.order(orderId));
      const learnerId = (await item(userKeys.email(String(order!['buyerEmail']))))?.['userId'];
      return learnerId ? item({ pk: `COURSE#${courseId}`, sk: `ENROLL#${String(learnerId)}` }) : undefined;
    };

    for (const to of ['refunded', 'disputed'] as const) {
      it(`${to === 'refunded' ? 'a refund' : 'a dispute'} before its payment is parked, then applied when the payment arrives: never lost, nobody left enrolled`, async () => {
        const { orderId, payment, reversal } = await pendingWithEvents(to);
        expect((await deliver(reversal)).status).toBe(200);
        expect((await deliver(reversal)).status, 'a redelivery').toBe(200);
        expect((await item(orderKeys.order(orderId)))?.['status']).toBe('pending');
        expect((await deliver(payment)).status).toBe(200);
        expect(await item(orderKeys.order(orderId))).toMatchObject({ status: to });
        expect((await enrolmentOf(orderId))?.['status']).not.toBe('active');
        expect((await deliver(payment)).status, "the payment's redelivery").toBe(200);
        expect((await item(orderKeys.order(orderId)))?.['status']).toBe(to);
      });
    }

    it('a refund after its payment (the usual order) undoes the paid order once', async () => {
      const { orderId, payment, reversal } = await pendingWithEvents('refunded');
      expect((await deliver(payment)).status).toBe(200);
      expect((await item(orderKeys.order(orderId)))?.['status']).toBe('paid');
      // The new buyer's enrolment, from the queue (the sender job the webhook started).
      expect((await eventually(() => enrolmentOf(orderId), (e) => e?.['status'] === 'active'))?.['status']).toBe('active');
      expect((await deliver(reversal)).status).toBe(200);
      expect((await item(orderKeys.order(orderId)))?.['status']).toBe('refunded');
      expect((await enrolmentOf(orderId))?.['status']).toBe('removed');
    });
  });
});
