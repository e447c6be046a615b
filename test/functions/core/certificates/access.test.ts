import { describe, expect, it } from 'vitest';
import { mayHaveCertificate, ORDER_REVERSAL_REASON } from '#core/certificates/access.ts';
import { assignSeat, licenseIdOf } from '#core/licenses/licenses.ts';
import { startCourseCheckout } from '#core/sales/checkout.ts';
import { sendQueuedMail } from '#core/mail/mail-queue.ts';
import { applyCheckoutEvent, applyReversalEvent } from '#core/sales/orders.ts';
import { refundSale } from '#core/sales/sales.ts';
import { APP_ORIGIN } from '#test/functions/fakes/deps.ts';
import { notReady, pricedCourse, salesDeps } from '#test/functions/fakes/payouts.ts';

const NOW = new Date('2026-11-25T10:00:00.000Z');
const completed = { status: 'active' as const, completedAt: '2026-11-24T10:00:00.000Z' };
const license = (over: { status?: 'active' | 'ended'; expiresAt?: string | null } = {}) => ({ status: 'active' as const, expiresAt: null, ...over });

describe('who may have a certificate when the job issues it', () => {
  it('a learner with an active, completed enrolment of their own', () => {
    expect(mayHaveCertificate(completed, undefined, NOW)).toBe(true);
    expect(mayHaveCertificate({ ...completed, completedAt: null }, undefined, NOW)).toBe(false);
    expect(mayHaveCertificate(undefined, undefined, NOW)).toBe(false);
  });

  it('not one whose enrolment was removed: refunded, disputed, removed by the creator or their seat revoked', () => {
    expect(mayHaveCertificate({ ...completed, status: 'removed' }, undefined, NOW)).toBe(false);
    expect(mayHaveCertificate({ ...completed, status: 'removed', licenseId: 'lic_1' }, license(), NOW)).toBe(false);
  });

  it("through a team's seat, only while the licence gives access", () => {
    const seated = { ...completed, licenseId: 'lic_1' };
    expect(mayHaveCertificate(seated, license(), NOW)).toBe(true);
    expect(mayHaveCertificate(seated, license({ expiresAt: '2026-12-01T00:00:00.000Z' }), NOW)).toBe(true);
    expect(mayHaveCertificate(seated, license({ expiresAt: '2026-11-25T09:59:59.000Z' }), NOW)).toBe(false);
    expect(mayHaveCertificate(seated, license({ status: 'ended' }), NOW)).toBe(false);
    expect(mayHaveCertificate(seated, undefined, NOW), 'a licence that is gone').toBe(false);
  });
});

const body = { successUrl: `${APP_ORIGIN}/c/c1?purchase=success`, cancelUrl: `${APP_ORIGIN}/c/c1` };
let n = 0;

/** A creator (u1) selling c1; one paid order by `email` (a team licence of `seats` when given). */
const paidOrder = async (email: string, seats?: number) => {
  const d = salesDeps({ courses: [pricedCourse({ seatPriceAmount: 1000 })] });
  await d.payouts.create({ userId: 'u1', accountId: 'acct_1', ...notReady, chargesEnabled: true, lastEventAt: 1, createdAt: 'x', updatedAt: 'x' });
  await startCourseCheckout(d, { courseId: 'c1', body: { ...body, email, ...(seats ? { seats } : {}) }, idempotencyKey: `cert-${++n}` });
  const pending = [...d.orders.orders.values()].find((o) => o.status === 'pending')!;
  await applyCheckoutEvent(d, {
    id: `evt_paid_${n}`,
    type: 'checkout.session.completed',
    account: 'acct_1',
    checkout: { sessionId: pending.checkoutSessionId!, orderId: pending.id, paymentStatus: 'paid', amountTotal: pending.amount, amountDiscount: 0, email, paymentIntentId: `pi_${n}` },
  });
  // The new buyer's account and enrolment (or licence), from the queue (the sender job).
  await sendQueuedMail(d);
  return { d, order: d.orders.orders.get(pending.id)! };
};

describe('a certificate of an order undone', () => {
  it("is revoked when the creator refunds the sale, with that reason; another course's stays valid", async () => {
    const { d, order } = await paidOrder('buyer@example.com');
    d.certificates.hold({ id: 'cert-1', courseId: 'c1', learnerId: order.learnerId! });
    d.certificates.hold({ id: 'cert-2', courseId: 'c2', learnerId: order.learnerId! });
    await refundSale(d, { creatorId: 'u1', orderId: order.id });
    expect(await d.certificates.get('cert-1')).toMatchObject({ status: 'revoked', revocationReason: ORDER_REVERSAL_REASON.refunded, revokedAt: d.clock.now().toISOString() });
    expect(await d.certificates.get('cert-2')).toMatchObject({ status: 'valid' });
  });

  it("is revoked when the payment is disputed (or refunded) on Stripe's side, once however often the event comes", async () => {
    const { d, order } = await paidOrder('buyer@example.com');
    d.certificates.hold({ id: 'cert-1', courseId: 'c1', learnerId: order.learnerId! });
    const dispute = { id: 'evt_d', type: 'charge.dispute.created', account: 'acct_1', reversal: { paymentIntentId: order.paymentIntentId!, to: 'disputed' as const, complete: true } };
    expect(await applyReversalEvent(d, dispute)).toBe('disputed');
    expect(await applyReversalEvent(d, dispute)).toBe('duplicate');
    expect(await d.certificates.get('cert-1')).toMatchObject({ status: 'revoked', revocationReason: ORDER_REVERSAL_REASON.disputed });

    const refunded = await paidOrder('other@example.com');
    refunded.d.certificates.hold({ id: 'cert-3', courseId: 'c1', learnerId: refunded.order.learnerId! });
    const event = { id: 'evt_r', type: 'charge.refunded', account: 'acct_1', reversal: { paymentIntentId: refunded.order.paymentIntentId!, to: 'refunded' as const, complete: true } };
    expect(await applyReversalEvent(refunded.d, event)).toBe('refunded');
    expect(await refunded.d.certificates.get('cert-3')).toMatchObject({ status: 'revoked', revocationReason: ORDER_REVERSAL_REASON.refunded });
  });

  it("of a team licence: each member's certificate of the course is revoked when the licence's order is refunded", async () => {
    const { d, order } = await paidOrder('lead@example.com', 2);
    const leaderId = (await d.users.getUserIdByEmail('lead@example.com'))!;
    await assignSeat(d, { leaderId, licenseId: licenseIdOf(order.id), email: 'ann@example.com' });
    const ann = (await d.users.getUserIdByEmail('ann@example.com'))!;
    d.certificates.hold({ id: 'cert-ann', courseId: 'c1', learnerId: ann });
    await refundSale(d, { creatorId: 'u1', orderId: order.id });
    expect(await d.certificates.get('cert-ann')).toMatchObject({ status: 'revoked', revocationReason: ORDER_REVERSAL_REASON.refunded });
  });
});
