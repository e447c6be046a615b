import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { affiliateKeys } from '#data/affiliates.ts';
import { payoutKeys } from '#data/payouts.ts';
import { work as approvalWork } from '#functions/jobs/commission-approval.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { counters, deliver, subscriptionEvent } from './billing-support.ts';
import { accountWithRole, api, dynamo, eventually, outputs, uniqueEmail, useLocalCloudEnv } from './support.ts';

/**
 * Affiliates end to end on the local cloud: a Pro creator's affiliate, the link's redirect and cookie, a purchase
 * paid through the Stripe stand-in and its Connect webhook, the commission's life (void on refund, approval by the
 * job, payout), and the platform's counters.
 */
type Account = Awaited<ReturnType<typeof accountWithRole>>;
let creator: Account;
let courseId: string;

const origin = () => outputs().WebUrl;
const item = async (key: { pk: string; sk: string }) => (await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: key, ConsistentRead: true }))).Item;

/**
 * The link followed by a new visitor each time (clicks count once per visitor a day: test/integration/edge.test.ts):
 * the answer (not followed further) and the `ref` cookie's value.
 */
let visitors = 0;
const follow = async (code: string, to = `/c/${courseId}`) => {
  const visitor = { 'x-forwarded-for': `198.51.100.${++visitors}` };
  const res = await fetch(`${outputs().ApiUrl}/api/public/r/${code}?to=${encodeURIComponent(to)}`, { redirect: 'manual', headers: visitor });
  const cookie = res.headers.get('set-cookie') ?? '';
  return { res, cookie, ref: /^ref=([^;]+)/.exec(cookie)?.[1] };
};

/** A checkout with this ref (and coupon), paid on the stand-in's page: the paid sale as the creator's list shows it. */
const buy = async (input: { ref?: string | undefined; email?: string; couponCode?: string }) => {
  const email = input.email ?? uniqueEmail('aff-buyer');
  for (;;) {
    const res = await api('POST', `/api/public/courses/${courseId}/checkout`, {
      body: { successUrl: `${origin()}/c/${courseId}?purchase=success`, cancelUrl: `${origin()}/c/${courseId}`, email, ...(input.ref ? { ref: input.ref } : {}), ...(input.couponCode ? { couponCode: input.couponCode } : {}) },
    });
    if (res.status === 429) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      continue;
    }
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await fetch(`${res.body.url as string}/pay`, { method: 'POST', redirect: 'manual' })).status).toBe(303);
    break;
  }
  const sales = await eventually(
    async () => (await api('GET', '/api/sales', { token: creator.token })).body.items as { id: string; buyerEmail: string; affiliateId: string | null; amount: number; status: string }[],
    (items) => items.some((s) => s.buyerEmail === email),
  );
  return sales.find((s) => s.buyerEmail === email)!;
};

const platform = () => counters();
const affiliateOf = async (id: string) => ((await api('GET', '/api/affiliates', { token: creator.token })).body.items as { id: string }[]).find((a) => a.id === id) as Record<string, unknown>;
const commissionsOf = async (id: string) => (await api('GET', `/api/affiliates/${id}/commissions`, { token: creator.token })).body.items as { orderId: string; amount: number; status: string; clawback: boolean }[];

beforeAll(async () => {
  creator = await accountWithRole('creator', 'affiliate-seller', { plan: 'starter' });
  courseId = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Sourdough at home' } })).body.id as string;
  await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Starter', kind: 'text', body: '<p>Flour and water.</p>' } });
  await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published', priceAmount: 4000 } });
  await api('POST', '/api/creator/payouts/connect', { token: creator.token, body: { returnUrl: `${origin()}/r`, refreshUrl: `${origin()}/f` } });
  const accountId = (await item(payoutKeys.account(creator.id)))!['accountId'] as string;
  await fetch(`${outputs().StripeApiUrl}/_stand-in/accounts/${accountId}/ready`, { method: 'POST' });
  await eventually(() => api('GET', '/api/creator/payouts', { token: creator.token }), (r) => r.body.status === 'enabled');
});

describe('affiliates', () => {
  it('are for the Pro plan: a Starter creator is refused (403), a Pro one adds an affiliate who is emailed the link', async () => {
    const body = { email: uniqueEmail('ali'), name: 'Ali', commissionPercent: 25, holdDays: 0 };
    const starter = await api('POST', '/api/affiliates', { token: creator.token, body });
    expect(starter).toMatchObject({ status: 403, body: { error: { code: 'PLAN_REQUIRED', details: { requiredPlan: 'pro' } } } });

    // The creator moves from Starter to Pro (the event Stripe sends); the middleware's remembered plan lasts seconds.
    const { customerId: customer, subscriptionId } = creator.subscription!;
    const now = Math.floor(Date.now() / 1000);
    expect((await deliver(subscriptionEvent({ type: 'customer.subscription.updated', created: now, customer, subscription: subscriptionId, status: 'active', price: 'price_pro_monthly' }))).status).toBe(200);
    await eventually(() => api('POST', '/api/affiliates', { token: creator.token, body: { ...body, email: uniqueEmail('probe'), commissionPercent: 95 } }), (r) => r.status !== 403);

    const made = await api('POST', '/api/affiliates', { token: creator.token, body });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'Ali', email: body.email, commissionPercent: 25, cookieDays: 30, holdDays: 0, clicks: 0, sales: 0 });
    expect(made.body.code).toMatch(/^[A-Z2-9]{8}$/);
    expect(made.body.link).toBe(`${new URL(origin()).origin}/api/public/r/${made.body.code as string}?to=/`);
    expect((await api('POST', '/api/affiliates', { token: creator.token, body })).status).toBe(409);
    expect((await api('POST', '/api/affiliates', { token: creator.token, body: { ...body, email: uniqueEmail('x'), commissionPercent: 95 } })).status).toBe(400);
  });

  it('count the click, set the ref cookie, credit the sale, void on refund, approve once, pay out once', async () => {
    const before = await platform();
    const ali = (await api('POST', '/api/affiliates', { token: creator.token, body: { email: uniqueEmail('ali2'), name: 'Ali Two', commissionPercent: 25, cookieDays: 7, holdDays: 0 } })).body as { id: string; code: string; email: string };

    // The link: only our own origin; a 302 with the cookie for the window.
    expect((await follow(ali.code, 'https://evil.example/steal')).res.status).toBe(400);
    expect((await follow(ali.code, '//evil.example')).res.status).toBe(400);
    const first = await follow(ali.code);
    expect(first.res.status).toBe(302);
    expect(first.res.headers.get('location')).toBe(`${new URL(origin()).origin}/c/${courseId}`);
    expect(first.cookie).toMatch(new RegExp(`^ref=${ali.code}\\.\\w+; Max-Age=604800; Path=/; SameSite=Lax`));

    // A coupon sale through the link: 25% of the £32 paid.
    await api('POST', '/api/coupons', { token: creator.token, body: { code: 'BREAD20', kind: 'percent', value: 20, courseIds: null } });
    const sale = await buy({ ref: first.ref, couponCode: 'BREAD20' });
    expect(sale).toMatchObject({ amount: 3200, affiliateId: ali.id });
    expect(await commissionsOf(ali.id)).toEqual([expect.objectContaining({ orderId: sale.id, amount: 800, status: 'pending', clawback: false })]);

    // Refunded before payout: void, nothing owed.
    expect((await api('POST', `/api/sales/${sale.id}/refund`, { token: creator.token })).status).toBe(200);
    expect((await commissionsOf(ali.id))[0]).toMatchObject({ status: 'void' });

    // Another sale; the job approves it once however often it runs; the payout pays it once.
    const kept = await buy({ ref: (await follow(ali.code)).ref });
    useLocalCloudEnv();
    await runToEnd('commission-approval', approvalWork);
    await runToEnd('commission-approval', approvalWork);
    expect((await commissionsOf(ali.id)).find((c) => c.orderId === kept.id)).toMatchObject({ amount: 1000, status: 'approved' });
    const headers = { 'Idempotency-Key': `payout-${ali.id}` };
    const payout = await api('POST', `/api/affiliates/${ali.id}/payouts`, { token: creator.token, headers });
    expect(payout.status).toBe(200);
    expect(payout.body).toMatchObject({ paidAmount: 1000, commissions: 1 });
    // What to pay in one row (the payout id as the transfer's reference); the lines, order by order, as a file.
    expect(payout.body.csv).toBe(`affiliate,email,amount,commissions,payoutId\nAli Two,${ali.email},10.00,1,${payout.body.payoutId}\n`);
    const file = await api('GET', `/api/affiliates/${ali.id}/payouts/${payout.body.payoutId}?format=csv&delivery=link`, { token: creator.token });
    expect(file.body).toMatchObject({ rows: 1 });
    expect((await (await fetch(file.body.url as string)).text()).split('\n')[1]).toMatch(new RegExp(`^Ali Two,${ali.email},${kept.id},10\\.00,`));
    expect((await api('POST', `/api/affiliates/${ali.id}/payouts`, { token: creator.token, headers })).body).toEqual(payout.body);
    expect((await api('POST', `/api/affiliates/${ali.id}/payouts`, { token: creator.token })).body).toMatchObject({ paidAmount: 0, commissions: 0 });

    // Refunded after the payout: still paid, recorded as a clawback.
    await api('POST', `/api/sales/${kept.id}/refund`, { token: creator.token });
    expect((await commissionsOf(ali.id)).find((c) => c.orderId === kept.id)).toMatchObject({ status: 'paid', clawback: true });
    expect(await affiliateOf(ali.id)).toMatchObject({ clicks: 2, sales: 2, pending: 0, approved: 0, paid: 1000, clawedBack: 1000 });

    // The platform's figures moved with them, in the same transactions.
    const after = await platform();
    const moved = (name: string) => (after[name] ?? 0) - (before[name] ?? 0);
    expect([moved('affiliates_total'), moved('affiliate_clicks'), moved('affiliate_sales')]).toEqual([1, 2, 2]);
    // (The approval run approves every due commission in the shared table, other tests' too: what leaves pending
    // arrives in approved, so the two move together.)
    expect([moved('commissions_total'), moved('commissions_pending') + moved('commissions_approved'), moved('commissions_paid')]).toEqual([1000, 0, 1000]);
  });

  it("credit nothing outside the cookie's window, for the affiliate's own purchase, or on another creator's link", async () => {
    const email = uniqueEmail('self');
    const sam = (await api('POST', '/api/affiliates', { token: creator.token, body: { email, name: 'Sam', commissionPercent: 10 } })).body as { id: string; code: string };
    expect((await buy({ ref: (await follow(sam.code)).ref, email })).affiliateId).toBeNull();

    // A click whose window is over (its kept time moved back: the browser would have dropped the cookie too).
    const old = await follow(sam.code);
    const clickId = old.ref!.split('.')[1]!;
    const stored = (await item(affiliateKeys.click(clickId)))!;
    await dynamo().send(new PutCommand({ TableName: outputs().TableName, Item: { ...stored, windowEndsAt: new Date(Date.now() - 1000).toISOString() } }));
    expect((await buy({ ref: old.ref })).affiliateId).toBeNull();

    // Only a real click record: Sam posting his bare code, or his code with a made-up click, credits nobody.
    expect((await buy({ ref: sam.code })).affiliateId).toBeNull();
    expect((await buy({ ref: `${sam.code}.made-up-click` })).affiliateId).toBeNull();
    // Nor the creator's own email (it cannot take a course: refunded, credited to nobody).
    expect(await buy({ ref: (await follow(sam.code)).ref, email: creator.email })).toMatchObject({ affiliateId: null, status: 'refunded' });
    expect(await affiliateOf(sam.id)).toMatchObject({ sales: 0 });

    // The last click wins: a click of Sam after one of another affiliate.
    const zoe = (await api('POST', '/api/affiliates', { token: creator.token, body: { email: uniqueEmail('zoe'), name: 'Zoe', commissionPercent: 10 } })).body as { id: string; code: string };
    await follow(zoe.code);
    expect((await buy({ ref: (await follow(sam.code)).ref })).affiliateId).toBe(sam.id);
  });

  it("are another creator's business: 404 on each of their affiliate routes", async () => {
    const other = await accountWithRole('creator', 'affiliate-other');
    const mine = ((await api('GET', '/api/affiliates', { token: creator.token })).body.items as { id: string }[])[0]!;
    expect((await api('GET', '/api/affiliates', { token: other.token })).body.items).toEqual([]);
    expect((await api('GET', `/api/affiliates/${mine.id}/commissions`, { token: other.token })).status).toBe(404);
    expect((await api('POST', `/api/affiliates/${mine.id}/payouts`, { token: other.token })).status).toBe(404);
    const learner = await accountWithRole('learner', 'affiliate-learner');
    expect((await api('GET', '/api/affiliates', { token: learner.token })).status).toBe(403);
  });
});
