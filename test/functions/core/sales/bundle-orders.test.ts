import { describe, expect, it } from 'vitest';
import { createBundle } from '#core/bundles/bundles.ts';
import { sendQueuedMail } from '#core/mail/mail-queue.ts';
import { applyCheckoutEvent } from '#core/sales/orders.ts';
import { creatorAnalytics, listSales, refundSale } from '#core/sales/sales.ts';
import { creatorExport } from '#core/reports/exports.ts';
import type { ExportFiles } from '#core/ports.ts';
import { startBundleCheckout, startCourseCheckout } from '#core/sales/checkout.ts';
import { APP_ORIGIN } from '#test/functions/fakes/deps.ts';
import { notReady, pricedCourse, salesDeps } from '#test/functions/fakes/payouts.ts';

const body = { successUrl: `${APP_ORIGIN}/b/x?purchase=success`, cancelUrl: `${APP_ORIGIN}/b/x` };
let n = 0;

/** A creator (u1) selling Knife skills (c1, £20) and Stocks (c2, £15) alone and as a £30 bundle. */
const world = async () => {
  const d = salesDeps({ courses: [pricedCourse({ id: 'c1', priceAmount: 2000 }), pricedCourse({ id: 'c2', title: 'Stocks', priceAmount: 1500 })] });
  await d.payouts.create({ userId: 'u1', accountId: 'acct_1', ...notReady, chargesEnabled: true, lastEventAt: 1, createdAt: 'x', updatedAt: 'x' });
  const bundle = await createBundle(d, { creatorId: 'u1', body: { title: 'Kitchen basics', courseIds: ['c1', 'c2'], priceAmount: 3000 } });
  return { d, bundleId: bundle.id };
};
type World = Awaited<ReturnType<typeof world>>['d'];

/** The bundle bought by `email` on Stripe's page: its paid event (delivered `times`), then the sender's queued work. */
const buy = async (d: World, bundleId: string, email: string, times = 1) => {
  await startBundleCheckout(d, { bundleId, body: { ...body, email }, idempotencyKey: `bundle-${++n}` });
  const pending = [...d.orders.orders.values()].find((o) => o.status === 'pending')!;
  const event = {
    id: `evt_paid_${n}`,
    type: 'checkout.session.completed',
    account: 'acct_1',
    checkout: { sessionId: pending.checkoutSessionId!, orderId: pending.id, paymentStatus: 'paid', amountTotal: pending.amount, amountDiscount: 0, email, paymentIntentId: `pi_${n}` },
  };
  for (let i = 0; i < times; i++) await applyCheckoutEvent(d, event);
  await sendQueuedMail(d);
  return d.orders.orders.get(pending.id)!;
};

describe("a bundle's order", () => {
  it('names the bundle and its courses, at the bundle’s price', async () => {
    const { d, bundleId } = await world();
    await startBundleCheckout(d, { bundleId, body: { ...body, email: 'ann@example.com' } });
    const order = [...d.orders.orders.values()][0]!;
    expect(order).toMatchObject({ courseId: bundleId, courseTitle: 'Kitchen basics', bundleId, courseIds: ['c1', 'c2'], courseTitles: ['Knife skills', 'Stocks'], price: 3000, amount: 3000, seats: null });
  });

  it('paid by a new email: one account, one invitation, enrolled in every course once however often the event comes', async () => {
    const { d, bundleId } = await world();
    const order = await buy(d, bundleId, 'ann@example.com', 2);
    expect(order.status).toBe('paid');
    const learnerId = order.learnerId!;
    for (const courseId of ['c1', 'c2']) {
      expect(await d.enrollments.get(courseId, learnerId)).toMatchObject({ status: 'active', sources: [`order:${order.id}`] });
    }
    expect(d.mailer.sent.filter((m) => m.to === 'ann@example.com')).toHaveLength(1);
    expect(d.enrollments.calls('enroll')).toBe(2);
  });

  it('refunded: every course it gave goes, and its certificates', async () => {
    const { d, bundleId } = await world();
    const order = await buy(d, bundleId, 'ann@example.com');
    d.certificates.hold({ id: 'cert-2', courseId: 'c2', learnerId: order.learnerId! });
    await refundSale(d, { creatorId: 'u1', orderId: order.id });
    expect((await d.enrollments.get('c1', order.learnerId!))?.status).toBe('removed');
    expect((await d.enrollments.get('c2', order.learnerId!))?.status).toBe('removed');
    expect(await d.certificates.get('cert-2')).toMatchObject({ status: 'revoked' });
  });

  it('a course the buyer holds by other means keeps its enrolment and certificate through the bundle’s refund', async () => {
    const { d, bundleId } = await world();
    const first = await buy(d, bundleId, 'ann@example.com');
    const learnerId = first.learnerId!;
    // A first bundle refunded, then the creator enrols her in c1: c1 is hers by other means when she buys it again.
    await refundSale(d, { creatorId: 'u1', orderId: first.id });
    await d.enrollments.enroll({ courseId: 'c1', learnerId, creatorId: 'u1', learnerEmail: 'ann@example.com', learnerJoinedAt: 'x', courseTitle: 'Knife skills', enrolledAt: d.clock.now().toISOString() });
    d.certificates.hold({ id: 'cert-1', courseId: 'c1', learnerId });
    const second = await buy(d, bundleId, 'ann@example.com');
    expect(second.status).toBe('paid');
    expect((await d.enrollments.get('c1', learnerId))?.sources).toEqual(['own', `order:${second.id}`]);
    await refundSale(d, { creatorId: 'u1', orderId: second.id });
    expect(await d.enrollments.get('c1', learnerId)).toMatchObject({ status: 'active', sources: ['own'] });
    expect(await d.certificates.get('cert-1')).toMatchObject({ status: 'valid' });
    expect((await d.enrollments.get('c2', learnerId))?.status).toBe('removed');
  });
});

describe("a bundle's sale in the creator's figures", () => {
  /** Knife skills (c1) bought alone by `email`: the course's own sale beside the bundle's. */
  const buyCourse = async (d: World, email: string) => {
    await startCourseCheckout(d, { courseId: 'c1', body: { successUrl: `${APP_ORIGIN}/c/c1`, cancelUrl: `${APP_ORIGIN}/c/c1`, email }, idempotencyKey: `course-${++n}` });
    const pending = [...d.orders.orders.values()].find((o) => o.status === 'pending')!;
    await applyCheckoutEvent(d, {
      id: `evt_course_${n}`,
      type: 'checkout.session.completed',
      account: 'acct_1',
      checkout: { sessionId: pending.checkoutSessionId!, orderId: pending.id, paymentStatus: 'paid', amountTotal: pending.amount, amountDiscount: 0, email, paymentIntentId: `pi_c${n}` },
    });
    return d.orders.orders.get(pending.id)!;
  };

  it("counts a bundle's sale once, under 'Bundle: <title>', not once per course, beside a course's own sale", async () => {
    const { d, bundleId } = await world();
    await buy(d, bundleId, 'ann@example.com');
    await buyCourse(d, 'bob@example.com');
    const analytics = await creatorAnalytics(d, { creatorId: 'u1', days: 30 });
    expect(analytics).toMatchObject({ revenue: 3000 + 2000, sales: 2 });
    expect(analytics.byCourse).toEqual([
      { courseId: bundleId, title: 'Bundle: Kitchen basics', revenue: 3000, sales: 1 },
      { courseId: 'c1', title: 'Knife skills', revenue: 2000, sales: 1 },
    ]);
  });

  it('names a deleted bundle’s sales as of a deleted course or bundle, and leaves them counted once', async () => {
    const { d, bundleId } = await world();
    await buy(d, bundleId, 'ann@example.com');
    await d.bundles.delete('u1', bundleId);
    const analytics = await creatorAnalytics(d, { creatorId: 'u1', days: 30 });
    expect(analytics.byCourse).toEqual([{ courseId: bundleId, title: 'Deleted course or bundle', revenue: 3000, sales: 1 }]);
    expect(analytics.sales).toBe(1);
  });

  it("is one row of the Sales list carrying its bundle, and one row of the sales export named 'Bundle: <title>'", async () => {
    const { d, bundleId } = await world();
    const order = await buy(d, bundleId, 'ann@example.com');
    await buyCourse(d, 'bob@example.com');
    const sales = (await listSales(d, { creatorId: 'u1' })).items;
    expect(sales.map((s) => [s.courseTitle, s.bundleId, s.amount])).toEqual(
      expect.arrayContaining([
        ['Kitchen basics', bundleId, 3000],
        ['Knife skills', null, 2000],
      ]),
    );
    expect(sales).toHaveLength(2);

    const writes: string[] = [];
    const exports: ExportFiles = {
      start: async () => ({ write: async (chunk) => void writes.push(chunk), finish: async () => ({ url: 'https://files.example/x.csv', expiresAt: 'soon' }), abort: async () => undefined }),
    };
    const none = async () => ({ items: [], nextCursor: null });
    await creatorExport(
      { ...d, exports, crm: { learnersPage: async () => ({ items: [] }) }, courses: { pageByCreator: none }, certificates: { listByCourse: none } },
      { creatorId: 'u1', kind: 'sales' },
    );
    const rows = writes.join('').trim().split('\n').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows.find((row) => row.startsWith(`${order.id},`))).toContain(`,${bundleId},Bundle: Kitchen basics,ann@example.com,30.00,0.00,30.00,gbp,`);
    expect(rows.some((row) => row.includes(',c1,Knife skills,bob@example.com,20.00,'))).toBe(true);
  });
});
