import { describe, expect, it } from 'vitest';
import { ConflictError, CouponInvalidError, NotFoundError, PayoutsNotReadyError, ValidationError } from '#core/errors.ts';
import { startCourseCheckout } from '#core/sales/checkout.ts';
import { createCoupon, deleteCoupon, listCoupons, updateCoupon } from '#core/sales/coupons.ts';
import { sendQueuedMail } from '#core/mail/mail-queue.ts';
import { applyCheckoutEvent } from '#core/sales/orders.ts';
import { APP_ORIGIN } from '#test/functions/fakes/deps.ts';
import { notReady, pricedCourse, salesDeps } from '#test/functions/fakes/payouts.ts';

const checkoutBody = { successUrl: `${APP_ORIGIN}/c/c1?purchase=success`, cancelUrl: `${APP_ORIGIN}/c/c1` };
const percent20 = { code: 'SPRING20', kind: 'percent' as const, value: 20, courseIds: null };

const ready = async (d = salesDeps({ courses: [pricedCourse(), pricedCourse({ id: 'c2', title: 'Bread' })] })) => {
  await d.payouts.create({ userId: 'u1', accountId: 'acct_1', ...notReady, chargesEnabled: true, lastEventAt: 1, createdAt: 'x', updatedAt: 'x' });
  return d;
};

let n = 0;
/** A checkout of c1 with the code, paid by `email`. */
const buyWith = async (d: Awaited<ReturnType<typeof ready>>, code: string, email: string, courseId = 'c1') => {
  await startCourseCheckout(d, { courseId, body: { ...checkoutBody, couponCode: code, email }, idempotencyKey: `key-coupon-${++n}` });
  const order = [...d.orders.orders.values()].find((o) => o.status === 'pending')!;
  await applyCheckoutEvent(d, {
    id: `evt_coupon_${n}`,
    type: 'checkout.session.completed',
    account: 'acct_1',
    checkout: { sessionId: order.checkoutSessionId!, orderId: order.id, paymentStatus: 'paid', amountTotal: order.amount, amountDiscount: order.discount, email, paymentIntentId: `pi_c${n}` },
  });
  // What the payment queued (a new buyer's account and enrolment, a receipt, a refund notice), done by the sender job.
  await sendQueuedMail(d);
  return d.orders.orders.get(order.id)!;
};

describe("a creator's coupons", () => {
  it("are made on the creator's Stripe account too, so that Stripe holds the cap and the expiry", async () => {
    const d = await ready();
    const made = await createCoupon(d, { creatorId: 'u1', body: { ...percent20, maxRedemptions: 5, expiresAt: '2027-01-01T00:00:00.000Z' } });
    expect(made).toEqual({ ...percent20, maxRedemptions: 5, expiresAt: '2027-01-01T00:00:00.000Z', redeemed: 0, active: true, affiliateId: null, createdAt: d.clock.now().toISOString() });
    expect([...d.connect.promotions.values()]).toMatchObject([{ accountId: 'acct_1', code: 'SPRING20', kind: 'percent', value: 20, maxRedemptions: 5, expiresAt: '2027-01-01T00:00:00.000Z' }]);
    expect((await listCoupons(d, 'u1')).items.map((c) => c.code)).toEqual(['SPRING20']);
    expect((await listCoupons(d, 'u2')).items).toEqual([]);
  });

  it('refuses a duplicate code (409), a past expiry (400) and a creator with no Stripe account (PAYOUTS_NOT_READY)', async () => {
    const d = await ready();
    await createCoupon(d, { creatorId: 'u1', body: percent20 });
    await expect(createCoupon(d, { creatorId: 'u1', body: percent20 })).rejects.toThrow(ConflictError);
    await expect(createCoupon(d, { creatorId: 'u1', body: { ...percent20, code: 'OLD', expiresAt: '2020-01-01T00:00:00.000Z' } })).rejects.toThrow(ValidationError);
    await expect(createCoupon(salesDeps(), { creatorId: 'u1', body: percent20 })).rejects.toThrow(PayoutsNotReadyError);
  });

  it('takes its discount off the order, and Stripe gets the full price with the promotion code', async () => {
    const d = await ready();
    await createCoupon(d, { creatorId: 'u1', body: percent20 });
    const order = await buyWith(d, 'spring20', 'ann@example.com');
    expect(order).toMatchObject({ status: 'paid', price: 2900, discount: 580, amount: 2320, couponCode: 'SPRING20' });
    expect([...d.connect.checkouts.values()][0]).toMatchObject({ amount: 2900, promotionCodeId: 'promo_1' });
    expect((await listCoupons(d, 'u1')).items[0]?.redeemed).toBe(1);
  });

  it('says why a code cannot be used: unknown, off, expired, used up, another course, too deep', async () => {
    const d = await ready();
    const attempt = (code: string, email = 'zed@example.com', courseId = 'c1') => startCourseCheckout(d, { courseId, body: { ...checkoutBody, couponCode: code, email } });
    await expect(attempt('NOPE')).rejects.toThrow('does not exist');
    await createCoupon(d, { creatorId: 'u1', body: { ...percent20, code: 'OFF' } });
    await updateCoupon(d, { creatorId: 'u1', code: 'OFF', body: { active: false } });
    await expect(attempt('OFF')).rejects.toThrow('does not exist');
    await createCoupon(d, { creatorId: 'u1', body: { ...percent20, code: 'SOON', expiresAt: '2026-11-21T12:00:01.000Z' } });
    d.clock.advance(60_000);
    await expect(attempt('SOON')).rejects.toThrow('has expired');
    await createCoupon(d, { creatorId: 'u1', body: { ...percent20, code: 'BREAD', courseIds: ['c2'] } });
    await expect(attempt('BREAD')).rejects.toThrow('not for this course');
    await createCoupon(d, { creatorId: 'u1', body: { ...percent20, code: 'ONCE', maxRedemptions: 1 } });
    await buyWith(d, 'ONCE', 'ann@example.com');
    await expect(attempt('ONCE')).rejects.toThrow('used up');
    await createCoupon(d, { creatorId: 'u1', body: { code: 'DEEP', kind: 'amount', value: 2880, courseIds: null } });
    await expect(attempt('DEEP')).rejects.toThrow(CouponInvalidError);
  });

  it('takes a code without the buyer\'s email (API.md\'s body has none): the discounted order waits for the email the payment carries', async () => {
    const d = await ready();
    await createCoupon(d, { creatorId: 'u1', body: percent20 });
    expect(await startCourseCheckout(d, { courseId: 'c1', body: { ...checkoutBody, couponCode: 'SPRING20' } })).toEqual({ url: expect.any(String) });
    expect([...d.orders.orders.values()]).toEqual([expect.objectContaining({ buyerEmail: null, couponCode: 'SPRING20', price: 2900, discount: 580, amount: 2320 })]);
  });

  it("is one use per buyer: a second purchase with the same code and email is paid, then refunded in full and the buyer told, the coupon counted once", async () => {
    const d = await ready();
    await createCoupon(d, { creatorId: 'u1', body: percent20 });
    expect(await buyWith(d, 'SPRING20', 'bob@example.com')).toMatchObject({ status: 'paid', couponCode: 'SPRING20' });
    // The checkout does not say whether this email used the code (that would tell anyone what an email bought).
    const second = await buyWith(d, 'SPRING20', 'bob@example.com', 'c2');
    expect(second).toMatchObject({ status: 'refunded', buyerEmail: 'bob@example.com' });
    expect(d.connect.refunds).toEqual([{ accountId: 'acct_1', paymentIntentId: second.paymentIntentId, idempotencyKey: `refund:${second.id}` }]);
    const bob = (await d.users.getUserIdByEmail('bob@example.com'))!;
    expect((await d.enrollments.get('c2', bob))?.status, 'no place in the second course').not.toBe('active');
    expect((await d.enrollments.get('c1', bob))?.status).toBe('active');
    expect((await listCoupons(d, 'u1')).items[0]?.redeemed).toBe(1);
    expect(d.mailer.sent.at(-1)).toMatchObject({ to: 'bob@example.com', subject: 'Course Platform: your payment was refunded' });
    expect(d.mailer.sent.at(-1)!.text).toContain('one use per buyer');
    expect(d.alerts).toEqual([{ message: 'paid course order could not be fulfilled: refunded', fields: expect.objectContaining({ orderId: second.id, reason: 'coupon-used' }) }]);
    expect(d.metrics.total('OrderUnfulfilled')).toBe(1);
  });

  it('refunds the loser of two concurrent purchases with one code and email (the use is a condition of the payment), keeping the winner\'s place', async () => {
    const d = await ready();
    await createCoupon(d, { creatorId: 'u1', body: percent20 });
    const start = async (courseId: string, key: string) => {
      await startCourseCheckout(d, { courseId, body: { ...checkoutBody, couponCode: 'SPRING20', email: 'cat@example.com' }, idempotencyKey: key });
      return d.orders.orders.get(`ord_${courseId}_${key}`)!;
    };
    const [a, b, c] = [await start('c1', 'key-race-a'), await start('c2', 'key-race-b'), await start('c1', 'key-race-c')];
    const pay = (order: typeof a, i: number) =>
      applyCheckoutEvent(d, {
        id: `evt_race_${i}`,
        type: 'checkout.session.completed',
        account: 'acct_1',
        checkout: { sessionId: order.checkoutSessionId!, orderId: order.id, paymentStatus: 'paid', amountTotal: order.amount, amountDiscount: order.discount, email: 'cat@example.com', paymentIntentId: `pi_race_${i}` },
      });
    expect(await pay(a, 1)).toBe('paid');
    // The buyer's account, made from the queue: the next orders find it.
    await sendQueuedMail(d);
    // The next deliveries read "no use yet" first (they raced the first payment): the payment's condition decides.
    const useOf = d.coupons.useOf.bind(d.coupons);
    let stale = true;
    d.coupons.useOf = async (...args) => (stale ? ((stale = false), undefined) : useOf(...args));
    expect(await pay(b, 2)).toBe('unfulfillable');
    stale = true;
    expect(await pay(c, 3)).toBe('unfulfillable');
    const cat = (await d.users.getUserIdByEmail('cat@example.com'))!;
    expect((await d.enrollments.get('c1', cat))?.status, "the winner's place (the same course as the third order) stays").toBe('active');
    expect((await d.enrollments.get('c2', cat))?.status, 'the second order enrolled, then lost: its place goes').toBe('removed');
    expect([a, b, c].map((o) => d.orders.orders.get(o.id)?.status)).toEqual(['paid', 'refunded', 'refunded']);
    expect(d.connect.refunds.map((r) => r.idempotencyKey)).toEqual([`refund:${b.id}`, `refund:${c.id}`]);
    expect((await listCoupons(d, 'u1')).items[0]?.redeemed).toBe(1);
  });

  it('switches on and off with its Stripe twin, and new limits make the twin again with what is left of the cap', async () => {
    const d = await ready();
    await createCoupon(d, { creatorId: 'u1', body: { ...percent20, maxRedemptions: 3 } });
    await buyWith(d, 'SPRING20', 'ann@example.com');
    await buyWith(d, 'SPRING20', 'bob@example.com');
    expect((await updateCoupon(d, { creatorId: 'u1', code: 'SPRING20', body: { active: false } })).active).toBe(false);
    expect(d.connect.promotions.get('promo_1')?.active).toBe(false);
    await expect(updateCoupon(d, { creatorId: 'u1', code: 'SPRING20', body: { maxRedemptions: 1 } })).rejects.toThrow(ValidationError);
    const raised = await updateCoupon(d, { creatorId: 'u1', code: 'SPRING20', body: { active: true, maxRedemptions: 10 } });
    expect(raised).toMatchObject({ active: true, maxRedemptions: 10, redeemed: 2 });
    expect(d.connect.promotions.get('promo_1')?.deleted).toBe(true);
    expect(d.connect.promotions.get('promo_2')).toMatchObject({ maxRedemptions: 8, active: true });
    await expect(updateCoupon(d, { creatorId: 'u2', code: 'SPRING20', body: { active: false } })).rejects.toThrow(NotFoundError);
  });

  it("is deleted here and on Stripe; another creator's is 404", async () => {
    const d = await ready();
    await createCoupon(d, { creatorId: 'u1', body: percent20 });
    await expect(deleteCoupon(d, { creatorId: 'u2', code: 'SPRING20' })).rejects.toThrow(NotFoundError);
    await deleteCoupon(d, { creatorId: 'u1', code: 'SPRING20' });
    expect(d.connect.promotions.get('promo_1')?.deleted).toBe(true);
    expect((await listCoupons(d, 'u1')).items).toEqual([]);
  });
});
