import { describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError } from '#core/errors.ts';
import { startCourseCheckout } from '#core/sales/checkout.ts';
import { sendQueuedMail } from '#core/mail/mail-queue.ts';
import { applyCheckoutEvent, applyReversalEvent } from '#core/sales/orders.ts';
import { creatorAnalytics, listSales, refundSale } from '#core/sales/sales.ts';
import { APP_ORIGIN } from '#test/functions/fakes/deps.ts';
import { notReady, pricedCourse, salesDeps } from '#test/functions/fakes/payouts.ts';

const body = { successUrl: `${APP_ORIGIN}/c/c1?purchase=success`, cancelUrl: `${APP_ORIGIN}/c/c1` };

let n = 0;
/** A creator ready to sell and `count` paid orders of course c1 by new buyers. */
const withSales = async (count = 1, d = salesDeps({ now: '2026-11-25T10:00:00.000Z', courses: [pricedCourse(), pricedCourse({ id: 'c2', title: 'Bread', priceAmount: 1500 })] })) => {
  if (!(await d.payouts.get('u1'))) await d.payouts.create({ userId: 'u1', accountId: 'acct_1', ...notReady, chargesEnabled: true, lastEventAt: 1, createdAt: 'x', updatedAt: 'x' });
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    await startCourseCheckout(d, { courseId: 'c1', body, idempotencyKey: `key-sale-${++n}` });
    const order = [...d.orders.orders.values()].find((o) => o.status === 'pending')!;
    const email = `buyer${n}@example.com`;
    await applyCheckoutEvent(d, {
      id: `evt_paid_${n}`,
      type: 'checkout.session.completed',
      account: 'acct_1',
      checkout: { sessionId: order.checkoutSessionId!, orderId: order.id, paymentStatus: 'paid', amountTotal: 2900, amountDiscount: 0, email, paymentIntentId: `pi_${n}` },
    });
    // The new buyer's account and enrolment, from the queue (the sender job).
    await sendQueuedMail(d);
    ids.push(order.id);
  }
  return { d, ids };
};

describe("the creator's sales", () => {
  it('lists paid sales newest first with no platform fee, a page at a time', async () => {
    const { d, ids } = await withSales(3);
    const page = await listSales(d, { creatorId: 'u1' });
    expect(page.items).toHaveLength(3);
    expect(page.items[0]).toMatchObject({ courseId: 'c1', courseTitle: 'Knife skills', amount: 2900, discount: 0, currency: 'gbp', status: 'paid', platformFee: 0 });
    expect(new Set(page.items.map((s) => s.id))).toEqual(new Set(ids));
    expect((await listSales(d, { creatorId: 'someone-else' })).items).toEqual([]);
  });

  it('refunds a sale on the creator’s account once, revoking the buyer’s access and the revenue', async () => {
    const { d, ids } = await withSales(1);
    const order = d.orders.orders.get(ids[0]!)!;
    expect((await refundSale(d, { creatorId: 'u1', orderId: order.id })).status).toBe('refunded');
    expect(d.connect.refunds).toEqual([{ accountId: 'acct_1', paymentIntentId: order.paymentIntentId, idempotencyKey: `refund:${order.id}` }]);
    expect((await d.enrollments.get('c1', order.learnerId!))?.status).toBe('removed');
    await expect(refundSale(d, { creatorId: 'u1', orderId: order.id })).rejects.toThrow(ConflictError);
    // Stripe's charge.refunded arrives after: nothing more happens.
    expect(
      await applyReversalEvent(d, { id: 'evt_refund', type: 'charge.refunded', account: 'acct_1', reversal: { paymentIntentId: order.paymentIntentId!, to: 'refunded', complete: true } }),
    ).toBe('not-pending');
    expect((await creatorAnalytics(d, { creatorId: 'u1', days: 30 })).refunds).toBe(1);
  });

  it("is 404 for another creator's sale or an order not paid", async () => {
    const { d, ids } = await withSales(1);
    await expect(refundSale(d, { creatorId: 'u2', orderId: ids[0]! })).rejects.toThrow(NotFoundError);
    await expect(refundSale(d, { creatorId: 'u1', orderId: 'nope' })).rejects.toThrow(NotFoundError);
    expect(d.connect.refunds).toEqual([]);
  });

  it("undoes a sale refunded or disputed on Stripe's side once, and leaves a partial refund standing", async () => {
    const { d, ids } = await withSales(2);
    const [first, second] = ids.map((id) => d.orders.orders.get(id)!);
    const partial = { id: 'evt_p', type: 'charge.refunded', account: 'acct_1', reversal: { paymentIntentId: first!.paymentIntentId!, to: 'refunded' as const, complete: false } };
    expect(await applyReversalEvent(d, partial)).toBe('not-pending');
    expect(d.orders.orders.get(first!.id)?.status).toBe('paid');
    const dispute = { id: 'evt_d', type: 'charge.dispute.created', account: 'acct_1', reversal: { paymentIntentId: second!.paymentIntentId!, to: 'disputed' as const, complete: true } };
    expect(await applyReversalEvent(d, dispute)).toBe('disputed');
    expect(await applyReversalEvent(d, dispute)).toBe('duplicate');
    expect((await d.enrollments.get('c1', second!.learnerId!))?.status).toBe('removed');
    expect(d.enrollments.calls('revokeSource')).toBe(1);
    expect(await applyReversalEvent(d, { ...dispute, id: 'evt_other', account: 'acct_other' })).toBe('unknown');
  });
});

describe("the creator's analytics", () => {
  it('adds up the window from the day counters: revenue net of refunds, every day of the window, revenue by course', async () => {
    const { d, ids } = await withSales(2);
    await refundSale(d, { creatorId: 'u1', orderId: ids[0]! });
    const analytics = await creatorAnalytics(d, { creatorId: 'u1', days: 30 });
    expect(analytics).toMatchObject({ currency: 'gbp', days: 30, revenue: 2900, sales: 2, refunds: 1 });
    expect(analytics.series).toHaveLength(30);
    expect(analytics.series[0]?.date).toBe('2026-10-27');
    expect(analytics.series.at(-1)).toEqual({ date: '2026-11-25', revenue: 2900, sales: 2 });
    expect(analytics.byCourse).toEqual([{ courseId: 'c1', title: 'Knife skills', revenue: 2900, sales: 2 }]);
    // Two checkouts started, two paid (no page views in this test: the storefront counts those).
    expect(analytics.funnel).toEqual({ views: 0, checkouts: 2, paid: 2 });
  });

  it('counts coupon use: each coupon’s paid redemptions and the discount they gave, kept after a refund', async () => {
    const { d } = await withSales(0);
    const paidWith = async (couponCode: string, discount: number) => {
      await startCourseCheckout(d, { courseId: 'c1', body, idempotencyKey: `key-coupon-${++n}` });
      const order = [...d.orders.orders.values()].find((o) => o.status === 'pending')!;
      d.orders.orders.set(order.id, { ...order, couponCode });
      await applyCheckoutEvent(d, {
        id: `evt_coupon_${n}`,
        type: 'checkout.session.completed',
        account: 'acct_1',
        checkout: { sessionId: order.checkoutSessionId!, orderId: order.id, paymentStatus: 'paid', amountTotal: 2900 - discount, amountDiscount: discount, email: `c${n}@example.com`, paymentIntentId: `pi_c${n}` },
      });
      return order.id;
    };
    const refunded = await paidWith('SPRING', 580);
    await paidWith('SPRING', 580);
    await paidWith('VIP', 1000);
    await withSales(1, d);
    await refundSale(d, { creatorId: 'u1', orderId: refunded });
    const analytics = await creatorAnalytics(d, { creatorId: 'u1', days: 30 });
    expect(analytics.coupons).toEqual([
      { code: 'SPRING', redemptions: 2, discount: 1160 },
      { code: 'VIP', redemptions: 1, discount: 1000 },
    ]);
    expect(analytics.sales).toBe(4);
  });

  it('is all zero for a creator with no sales', async () => {
    const analytics = await creatorAnalytics(salesDeps(), { creatorId: 'u1', days: 90 });
    expect(analytics).toMatchObject({ revenue: 0, sales: 0, refunds: 0, byCourse: [], coupons: [] });
    expect(analytics.series.every((day) => day.revenue === 0 && day.sales === 0)).toBe(true);
    expect(analytics.series).toHaveLength(90);
  });
});
