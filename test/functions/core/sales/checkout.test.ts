import { describe, expect, it } from 'vitest';
import { ConflictError, CouponInvalidError, NotFoundError, PayoutsNotReadyError, UpstreamError, ValidationError } from '#core/errors.ts';
import { NOT_ON_SALE_NOW, startCourseCheckout, teamTooLargeForCreator } from '#core/sales/checkout.ts';
import { APP_ORIGIN } from '#test/functions/fakes/deps.ts';
import { notReady, pricedCourse, salesDeps } from '#test/functions/fakes/payouts.ts';

const body = { successUrl: `${APP_ORIGIN}/c/c1?purchase=success`, cancelUrl: `${APP_ORIGIN}/c/c1` };

/** The creator's payment account, as the webhook leaves it. */
const withAccount = async (d: ReturnType<typeof salesDeps>, chargesEnabled = true) => {
  await d.payouts.create({ userId: 'u1', accountId: 'acct_1', ...notReady, chargesEnabled, lastEventAt: 1, createdAt: 'x', updatedAt: 'x' });
  return d;
};

describe("a visitor's course checkout by the creator's plan (issue 29)", () => {
  it('refuses a course whose creator has no plan that sells: 409 "not on sale at the moment", no order, no Stripe call', async () => {
    const d = await withAccount(salesDeps({ plans: { u1: 'none' } }));
    await expect(startCourseCheckout(d, { courseId: 'c1', body })).rejects.toThrow(new ConflictError(NOT_ON_SALE_NOW));
    expect(d.orders.orders.size).toBe(0);
    expect(d.connect.checkouts.size).toBe(0);
    d.setPlan('u1', 'starter');
    expect(await startCourseCheckout(d, { courseId: 'c1', body })).toEqual({ url: expect.any(String) });
  });

  it("sells a Starter creator's teams up to 10 seats (400 on seats past it), a Pro creator's of any size", async () => {
    const d = await withAccount(salesDeps({ plans: { u1: 'starter' }, courses: [pricedCourse({ seatPriceAmount: 1000 })] }));
    await expect(startCourseCheckout(d, { courseId: 'c1', body: { ...body, seats: 11 } })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: teamTooLargeForCreator(10),
      details: [expect.objectContaining({ path: 'seats' })],
    });
    expect(await startCourseCheckout(d, { courseId: 'c1', body: { ...body, seats: 10 }, idempotencyKey: 'team-10' })).toEqual({ url: expect.any(String) });
    d.setPlan('u1', 'pro');
    expect(await startCourseCheckout(d, { courseId: 'c1', body: { ...body, seats: 200 }, idempotencyKey: 'team-200' })).toEqual({ url: expect.any(String) });
  });
});

describe("a visitor's course checkout", () => {
  it("opens Stripe's page on the creator's own account at the stored price, with a pending order behind it", async () => {
    const d = await withAccount(salesDeps());
    const { url } = await startCourseCheckout(d, { courseId: 'c1', body: { ...body, email: 'buyer@example.com' } });
    const [session] = [...d.connect.checkouts.values()];
    expect(session).toMatchObject({ accountId: 'acct_1', amount: 2900, courseTitle: 'Knife skills', email: 'buyer@example.com', url, idempotencyKey: 'course-checkout:order-1' });
    expect(d.orders.orders.get('order-1')).toMatchObject({
      status: 'pending',
      price: 2900,
      amount: 2900,
      discount: 0,
      buyerEmail: 'buyer@example.com',
      creatorId: 'u1',
      accountId: 'acct_1',
      checkoutSessionId: session!.id,
      checkoutUrl: url,
    });
    // Open for an hour.
    expect(session!.expiresAt.getTime() - d.clock.now().getTime()).toBe(60 * 60_000);
  });

  it('answers a retried request with the same Idempotency-Key with the same page, and one order', async () => {
    const d = await withAccount(salesDeps());
    const first = await startCourseCheckout(d, { courseId: 'c1', body, idempotencyKey: 'key-12345' });
    expect(await startCourseCheckout(d, { courseId: 'c1', body, idempotencyKey: 'key-12345' })).toEqual(first);
    expect(d.orders.orders.size).toBe(1);
    expect(d.connect.checkouts.size).toBe(1);
  });

  it("finishes a retried request whose first try failed at Stripe: the same order, its page made now, counted once", async () => {
    const d = await withAccount(salesDeps());
    d.connect.before('createCourseCheckout', (call) => {
      if (call === 1) throw new UpstreamError('The payment provider could not start the checkout. Please try again.');
    });
    await expect(startCourseCheckout(d, { courseId: 'c1', body, idempotencyKey: 'key-retry-1' })).rejects.toThrow(UpstreamError);
    const { url } = await startCourseCheckout(d, { courseId: 'c1', body, idempotencyKey: 'key-retry-1' });
    expect(d.orders.orders.size).toBe(1);
    expect([...d.orders.orders.values()][0]).toMatchObject({ status: 'pending', checkoutUrl: url });
    expect((await d.orders.salesWindow('u1', '2026-01-01', '2026-12-31')).checkouts).toBe(1);
  });

  it('sends Stripe the very same request on a retry a minute later (a changed parameter under the same key is refused)', async () => {
    const d = await withAccount(salesDeps());
    const asked: unknown[] = [];
    d.connect.before('createCourseCheckout', (call) => {
      if (call === 1) throw new UpstreamError('The payment provider could not start the checkout. Please try again.');
    });
    const create = d.connect.createCourseCheckout.bind(d.connect);
    d.connect.createCourseCheckout = async (input) => {
      asked.push(input);
      return create(input);
    };
    await expect(startCourseCheckout(d, { courseId: 'c1', body, idempotencyKey: 'key-retry-2' })).rejects.toThrow(UpstreamError);
    d.clock.advance(60_000);
    await startCourseCheckout(d, { courseId: 'c1', body, idempotencyKey: 'key-retry-2' });
    expect(asked).toHaveLength(2);
    expect(asked[1]).toEqual(asked[0]);
  });

  it('refuses a retry of a purchase that is over (paid or expired)', async () => {
    const d = await withAccount(salesDeps());
    await startCourseCheckout(d, { courseId: 'c1', body, idempotencyKey: 'key-over-1' });
    const order = [...d.orders.orders.values()][0]!;
    d.orders.orders.set(order.id, { ...order, status: 'expired' });
    await expect(startCourseCheckout(d, { courseId: 'c1', body, idempotencyKey: 'key-over-1' })).rejects.toThrow(ConflictError);
  });

  it('is 404 for a draft, an unpriced or a missing course', async () => {
    const d = await withAccount(salesDeps({ courses: [pricedCourse({ id: 'draft', status: 'draft' }), pricedCourse({ id: 'free', priceAmount: 0 })] }));
    for (const courseId of ['draft', 'free', 'nope']) await expect(startCourseCheckout(d, { courseId, body })).rejects.toThrow(NotFoundError);
    expect(d.orders.orders.size).toBe(0);
  });

  it("is PAYOUTS_NOT_READY until the creator's account can take charges", async () => {
    await expect(startCourseCheckout(salesDeps(), { courseId: 'c1', body })).rejects.toThrow(PayoutsNotReadyError);
    const pending = await withAccount(salesDeps(), false);
    await expect(startCourseCheckout(pending, { courseId: 'c1', body })).rejects.toThrow(PayoutsNotReadyError);
    expect(pending.connect.checkouts.size).toBe(0);
  });

  it('refuses seats (team licences come later), unknown coupons and addresses off the app origin, making nothing', async () => {
    const d = await withAccount(salesDeps());
    await expect(startCourseCheckout(d, { courseId: 'c1', body: { ...body, seats: 5 } })).rejects.toThrow(ValidationError);
    await expect(startCourseCheckout(d, { courseId: 'c1', body: { ...body, couponCode: 'SPRING', email: 'ann@example.com' } })).rejects.toThrow(CouponInvalidError);
    await expect(startCourseCheckout(d, { courseId: 'c1', body: { ...body, successUrl: 'https://evil.example/x' } })).rejects.toThrow(ValidationError);
    expect(d.orders.orders.size).toBe(0);
  });

  it("answers the same whoever the email belongs to (an admin, a creator, a leader, a learner enrolled already, nobody): nothing is looked up", async () => {
    const d = await withAccount(salesDeps());
    await d.users.createUser({ id: 'a1', email: 'admin@example.com', role: 'admin', createdAt: 'x' });
    await d.users.createUser({ id: 'le1', email: 'lead@example.com', role: 'leader', createdAt: 'x' });
    await d.users.createUser({ id: 'l1', email: 'ann@example.com', role: 'learner', createdAt: 'x' });
    await d.enrollments.enroll({ courseId: 'c1', learnerId: 'l1', creatorId: 'u1', learnerEmail: 'ann@example.com', learnerJoinedAt: 'x', courseTitle: 'Knife skills', enrolledAt: 'x' });
    const answers = [];
    for (const email of ['admin@example.com', 'creator@example.com', 'lead@example.com', 'ann@example.com', 'nobody@example.com']) {
      answers.push(await startCourseCheckout(d, { courseId: 'c1', body: { ...body, email } }));
    }
    expect(answers.map((a) => Object.keys(a))).toEqual(Array(5).fill(['url']));
    expect([...d.orders.orders.values()].map((o) => o.status)).toEqual(Array(5).fill('pending'));
  });
});
