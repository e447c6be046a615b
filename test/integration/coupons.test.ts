import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { orderKeys } from '#data/orders.ts';
import { payoutKeys } from '#data/payouts.ts';
import { mailsTo } from './mail-support.ts';
import { accountWithRole, api, dynamo, eventually, outputs, streamsCaughtUp, uniqueEmail } from './support.ts';

/** Coupons end to end: our rules before the checkout, Stripe's cap on the creator's account under concurrency, one count per paid order. */
type Account = Awaited<ReturnType<typeof accountWithRole>>;
let creator: Account;
let courseId: string;

const item = async (key: { pk: string; sk: string }) => (await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: key, ConsistentRead: true }))).Item;
const origin = () => outputs().WebUrl;
/** POST the checkout; a 429 of the public route's throttle (10/s, burst 20) is waited out, as a buyer's retry would. */
const checkout = async (extra: Record<string, unknown>) => {
  for (;;) {
    const res = await api('POST', `/api/public/courses/${courseId}/checkout`, { body: { successUrl: `${origin()}/c/${courseId}?purchase=success`, cancelUrl: `${origin()}/c/${courseId}`, ...extra } });
    if (res.status !== 429) return res;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
};


beforeAll(async () => {
  creator = await accountWithRole('creator', 'coupon-seller');
  courseId = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Pasta by hand' } })).body.id as string;
  await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Dough', kind: 'text', body: '<p>Eggs.</p>' } });
  await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published', priceAmount: 4000 } });
});

describe('coupons', () => {
  it('need a connected Stripe account, then are made once per code, and only their creator sees or changes them', async () => {
    const body = { code: 'pasta20', kind: 'percent', value: 20, courseIds: null, maxRedemptions: 5 };
    const early = await api('POST', '/api/coupons', { token: creator.token, body });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('PAYOUTS_NOT_READY');

    await api('POST', '/api/creator/payouts/connect', { token: creator.token, body: { returnUrl: `${origin()}/r`, refreshUrl: `${origin()}/f` } });
    const accountId = (await item(payoutKeys.account(creator.id)))!['accountId'] as string;
    await fetch(`${outputs().StripeApiUrl}/_stand-in/accounts/${accountId}/ready`, { method: 'POST' });
    await eventually(() => api('GET', '/api/creator/payouts', { token: creator.token }), (r) => r.body.status === 'enabled');

    const made = await api('POST', '/api/coupons', { token: creator.token, body });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ code: 'PASTA20', kind: 'percent', value: 20, courseIds: null, maxRedemptions: 5, redeemed: 0, active: true });
    expect((await api('POST', '/api/coupons', { token: creator.token, body })).status).toBe(409);
    expect((await api('POST', '/api/coupons', { token: creator.token, body: { ...body, code: 'x' } })).status).toBe(400);

    const other = await accountWithRole('creator', 'coupon-other');
    expect((await api('GET', '/api/coupons', { token: other.token })).body.items).toEqual([]);
    for (const [method, body2] of [['PATCH', { active: false }], ['DELETE', undefined]] as const) {
      expect((await api(method, '/api/coupons/PASTA20', { token: other.token, ...(body2 ? { body: body2 } : {}) })).status).toBe(404);
    }
    expect((await api('GET', '/api/coupons', { token: creator.token })).body.items.map((c: { code: string }) => c.code)).toEqual(['PASTA20']);
  });

  it('gives buyers a readable reason when a code cannot be used', async () => {
    const res = await checkout({ couponCode: 'NOSUCH', email: uniqueEmail('nosuch') });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'COUPON_INVALID', message: 'The coupon code NOSUCH does not exist.' });
  });

  it('20 concurrent checkouts against 5 redemptions left: at most 5 are paid with it, each counted once', async () => {
    const started = await Promise.all(Array.from({ length: 20 }, () => checkout({ couponCode: 'PASTA20', email: uniqueEmail('pasta') })));
    expect(started.map((s) => s.status)).toEqual(Array(20).fill(200));
    const paid = await Promise.all(started.map((s) => fetch(`${s.body.url as string}/pay`, { method: 'POST', redirect: 'manual' }).then((res) => res.status)));
    const succeeded = paid.filter((status) => status === 303).length;
    expect(succeeded).toBeLessThanOrEqual(5);
    expect(succeeded).toBeGreaterThan(0);

    const coupon = await eventually(
      async () => (await api('GET', '/api/coupons', { token: creator.token })).body.items[0] as { redeemed: number },
      (c) => c.redeemed === succeeded,
    );
    expect(coupon.redeemed).toBe(succeeded);
    const sales = (await api('GET', '/api/sales', { token: creator.token })).body.items as { amount: number; discount: number; couponCode: string }[];
    expect(sales).toHaveLength(succeeded);
    for (const sale of sales) expect(sale).toMatchObject({ amount: 3200, discount: 800, couponCode: 'PASTA20' });
    // The sales figures come from the table's stream (decision 0040): read once the aggregator has every payment's change
    // (the window's totals and its coupons come from different items, read at once: a read during a batch may see one first).
    await streamsCaughtUp();
    const analytics = (await api('GET', '/api/creator/analytics?days=30', { token: creator.token })).body;
    expect(analytics).toMatchObject({ revenue: 3200 * succeeded, sales: succeeded });
    expect(analytics.coupons).toEqual([{ code: 'PASTA20', redemptions: succeeded, discount: 800 * succeeded }]);

    // The order the first paid one made holds the discount too.
    const first = sales[0] as unknown as { id: string };
    expect(await item(orderKeys.order(first.id))).toMatchObject({ price: 4000, discount: 800, amount: 3200 });
  });

  it('one use per buyer: 10 concurrent checkouts by one buyer with one code redeem it once; the other 9 payments are refunded and the buyer told', async () => {
    expect((await api('POST', '/api/coupons', { token: creator.token, body: { code: 'WELCOME10', kind: 'percent', value: 10, courseIds: null } })).status).toBe(201);
    const buyer = uniqueEmail('once');
    const started = await Promise.all(Array.from({ length: 10 }, () => checkout({ couponCode: 'WELCOME10', email: buyer })));
    expect(started.map((s) => s.status)).toEqual(Array(10).fill(200));
    // Paid at once on Stripe's page: each payment's signed Connect events reach the webhook together.
    const paid = await Promise.all(started.map((s) => fetch(`${s.body.url as string}/pay`, { method: 'POST', redirect: 'manual' }).then((res) => res.status)));
    expect(paid).toEqual(Array(10).fill(303));

    const mine = async () => ((await api('GET', '/api/sales', { token: creator.token })).body.items as { buyerEmail: string; status: string; couponCode: string; id: string }[]).filter((s) => s.buyerEmail === buyer);
    const sales = await eventually(mine, (list) => list.filter((s) => s.status === 'refunded').length === 9 && list.some((s) => s.status === 'paid'), 60_000);
    expect(sales.map((s) => s.status).sort()).toEqual(['paid', ...Array(9).fill('refunded')]);
    const coupon = ((await api('GET', '/api/coupons', { token: creator.token })).body.items as { code: string; redeemed: number }[]).find((c) => c.code === 'WELCOME10');
    expect(coupon?.redeemed).toBe(1);
    expect(await item({ pk: `CREATOR#${creator.id}`, sk: `COUPONUSE#WELCOME10#${buyer}` })).toMatchObject({ orderId: sales.find((s) => s.status === 'paid')!.id });
    // Every refunded order's money went back on the creator's account, once each.
    for (const sale of sales.filter((s) => s.status === 'refunded')) {
      const order = await item(orderKeys.order(sale.id));
      expect(order, sale.id).toMatchObject({ unfulfilled: 'coupon-used' });
      const refunds = await fetch(`${outputs().StripeApiUrl}/v1/refunds?payment_intent=${order!['paymentIntentId'] as string}`, { headers: { Authorization: 'Bearer sk_test_local', 'Stripe-Account': order!['accountId'] as string } });
      expect(((await refunds.json()) as { data: { amount: number }[] }).data.map((r) => r.amount), sale.id).toEqual([3600]);
    }
    const notices = await eventually(() => mailsTo(buyer), (m) => m.filter((x) => x.subject === 'Course Platform: your payment was refunded').length === 9);
    expect(notices.filter((m) => m.subject === 'Course Platform: your payment was refunded')).toHaveLength(9);
    for (const notice of notices.filter((m) => m.subject === 'Course Platform: your payment was refunded')) expect(notice.body.text).toContain('one use per buyer');
    // The buyer has the course once.
    const learner = (await item(orderKeys.order(sales.find((s) => s.status === 'paid')!.id)))!['learnerId'] as string;
    expect(await item({ pk: `COURSE#${courseId}`, sk: `ENROLL#${learner}` })).toMatchObject({ status: 'active' });
  });

  it("a code without an email (API.md's body has none) is counted against the email typed on Stripe's page: a second use by that buyer is refunded and told", async () => {
    expect((await api('POST', '/api/coupons', { token: creator.token, body: { code: 'NOMAIL15', kind: 'percent', value: 15, courseIds: null } })).status).toBe(201);
    const buyer = uniqueEmail('typed');
    const payTyping = async (url: string) =>
      (await fetch(`${url}/pay`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ email: buyer }).toString(), redirect: 'manual' })).status;
    const first = await checkout({ couponCode: 'NOMAIL15' });
    expect(first.status).toBe(200);
    expect(await payTyping(first.body.url as string)).toBe(303);
    const mine = async () => ((await api('GET', '/api/sales', { token: creator.token })).body.items as { buyerEmail: string; status: string }[]).filter((s) => s.buyerEmail === buyer);
    await eventually(mine, (list) => list.some((s) => s.status === 'paid'));
    const second = await checkout({ couponCode: 'NOMAIL15' });
    expect(second.status).toBe(200);
    expect(await payTyping(second.body.url as string)).toBe(303);
    const sales = await eventually(mine, (list) => list.length === 2 && list.some((s) => s.status === 'refunded'));
    expect(sales.map((s) => s.status).sort()).toEqual(['paid', 'refunded']);
    const notices = await eventually(() => mailsTo(buyer), (m) => m.some((x) => x.subject === 'Course Platform: your payment was refunded'));
    expect(notices.find((m) => m.subject === 'Course Platform: your payment was refunded')!.body.text).toContain('one use per buyer');
  });

  it('switches off and is deleted, here and on Stripe', async () => {
    const off = await api('PATCH', '/api/coupons/pasta20', { token: creator.token, body: { active: false } });
    expect(off.body).toMatchObject({ code: 'PASTA20', active: false });
    expect((await checkout({ couponCode: 'PASTA20', email: uniqueEmail('late') })).body.error.code).toBe('COUPON_INVALID');
    expect((await api('DELETE', '/api/coupons/PASTA20', { token: creator.token })).status).toBe(204);
    expect((await api('GET', '/api/coupons', { token: creator.token })).body.items.map((c: { code: string }) => c.code)).not.toContain('PASTA20');
  });
});
