import { describe, expect, it } from 'vitest';
import { createBundle } from '#core/bundles/bundles.ts';
import { sendQueuedMail } from '#core/mail/mail-queue.ts';
import { startBundleCheckout } from '#core/sales/checkout.ts';
import { applyCheckoutEvent } from '#core/sales/orders.ts';
import { refundSale } from '#core/sales/sales.ts';
import { memoryBundles } from '#test/functions/fakes/bundles.ts';
import { APP_ORIGIN } from '#test/functions/fakes/deps.ts';
import { notReady, pricedCourse, salesDeps } from '#test/functions/fakes/payouts.ts';

const body = { successUrl: `${APP_ORIGIN}/b/x?purchase=success`, cancelUrl: `${APP_ORIGIN}/b/x` };
let n = 0;

/** A creator (u1) selling Knife skills (c1, £20) and Stocks (c2, £15) alone and as a £30 bundle. */
const world = async () => {
  const d = { ...salesDeps({ courses: [pricedCourse({ id: 'c1', priceAmount: 2000 }), pricedCourse({ id: 'c2', title: 'Stocks', priceAmount: 1500 })] }), bundles: memoryBundles() };
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
