import { describe, expect, it } from 'vitest';
import type { ConnectCheckout } from '#core/sales/ports.ts';
import { startCourseCheckout } from '#core/sales/checkout.ts';
import { applyCheckoutEvent, applyReversalEvent } from '#core/sales/orders.ts';
import { sendQueuedMail } from '#core/mail/mail-queue.ts';
import { receiptOwed, sendOrderReceipt } from '#core/sales/order-receipts.ts';
import { emailPseudonym } from '#functions/composition/deps-account-deletion.ts';
import { APP_ORIGIN } from '#test/functions/fakes/deps.ts';
import { CLAY_SCHOOL } from '#test/functions/fakes/mail-schools.ts';
import { notReady, salesDeps } from '#test/functions/fakes/payouts.ts';

const body = { successUrl: `${APP_ORIGIN}/c/c1?purchase=success`, cancelUrl: `${APP_ORIGIN}/c/c1` };

/** A creator ready to sell, and a visitor's pending order for course c1. */
const pendingOrder = async (email?: string) => {
  const d = salesDeps();
  await d.payouts.create({ userId: 'u1', accountId: 'acct_1', ...notReady, chargesEnabled: true, lastEventAt: 1, createdAt: 'x', updatedAt: 'x' });
  await startCourseCheckout(d, { courseId: 'c1', body: { ...body, ...(email ? { email } : {}) } });
  const order = d.orders.orders.get('order-1')!;
  return { d, order };
};

let n = 0;
/** An order as its stream record's image holds it (its keys with it). */
const imageOf = (o: { id: string }): Record<string, unknown> => ({ pk: `ORDER#${o.id}`, sk: 'ORDER', ...structuredClone(o) });
const completed = (order: { id: string; checkoutSessionId: string | null }, over: Partial<ConnectCheckout> = {}, type = 'checkout.session.completed') => ({
  id: `evt_${++n}`,
  type,
  account: 'acct_1',
  checkout: {
    sessionId: order.checkoutSessionId!,
    orderId: order.id,
    paymentStatus: 'paid',
    amountTotal: 2900,
    amountDiscount: 0,
    email: 'new@example.com',
    paymentIntentId: 'pi_1',
    ...over,
  },
});

describe('a paid course order', () => {
  it('pays the order for a new email and queues its account; the sender job makes the learner account, invites it with what was bought, enrols it', async () => {
    const { d, order } = await pendingOrder();
    expect(await applyCheckoutEvent(d, completed(order))).toBe('paid');
    // The webhook answers with the order paid and the account's work queued in the same write, the sender started.
    expect(d.orders.orders.get(order.id)).toMatchObject({ status: 'paid', learnerId: null });
    expect(d.mailQueue.queued).toEqual([expect.objectContaining({ kind: 'buyer-account', orderId: order.id, email: 'new@example.com', tries: 0 })]);
    expect(d.directory.accounts.size, 'no sign-in account made by the webhook').toBe(0);
    expect(d.mailer.sent, 'no email sent by the webhook').toEqual([]);
    expect(d.senderStarts, "a run of the sender, named by the work it is for").toEqual([`buyer-account:${order.id}`]);
    expect(await sendQueuedMail(d)).toEqual({ sent: 1, failed: 0, givenUp: 0 });
    expect(d.mailQueue.queued).toEqual([]);
    const learnerId = await d.users.getUserIdByEmail('new@example.com');
    expect(await d.users.getUser(learnerId!)).toMatchObject({ role: 'learner' });
    expect(await d.enrollments.get('c1', learnerId!)).toMatchObject({ status: 'active', creatorId: 'u1', courseTitle: 'Knife skills' });
    expect(d.orders.orders.get(order.id)).toMatchObject({ status: 'paid', amount: 2900, buyerEmail: 'new@example.com', learnerId, paymentIntentId: 'pi_1', paidAt: d.clock.now().toISOString() });
    expect(d.mailer.sent).toHaveLength(1);
    expect(d.mailer.sent[0]).toMatchObject({ to: 'new@example.com', subject: 'Your purchase on Course Platform' });
    expect(d.mailer.sent[0]!.text).toContain('£29');
    expect(d.mailer.sent[0]!.text).toContain('Temporary password: Temp-Pass-1aA');
  });

  it('makes no account again, and enrols nobody, for a buyer who deleted their account while the work was queued (issue 37)', async () => {
    const { d, order } = await pendingOrder();
    expect(await applyCheckoutEvent(d, completed(order))).toBe('paid');
    // The sender learns of the deletion from the email's suppression (reason 'deleted', data/account-deletion.ts).
    expect(await sendQueuedMail({ ...d, deletedRecipients: async (emails) => new Set(emails.filter((e) => e === 'new@example.com')) })).toEqual({ sent: 0, failed: 0, givenUp: 0 });
    expect(d.mailQueue.queued).toEqual([]);
    expect(await d.users.getUserIdByEmail('new@example.com')).toBeUndefined();
    expect(d.directory.accounts.size).toBe(0);
    expect(d.mailer.sent).toEqual([]);
    expect(d.orders.orders.get(order.id)).toMatchObject({ status: 'paid', learnerId: null });
  });

  it('gives nothing to an account whose deletion is under way (asked for, its email not yet released)', async () => {
    const { d, order } = await pendingOrder();
    expect(await applyCheckoutEvent(d, completed(order))).toBe('paid');
    // Before the work ran, the buyer signed up themselves and then asked for their account to be deleted.
    await d.users.createUser({ id: 'l9', email: 'new@example.com', role: 'learner', createdAt: 'x', deletingAt: '2026-11-25T10:00:00.000Z' });
    expect(await sendQueuedMail(d)).toEqual({ sent: 1, failed: 0, givenUp: 0 });
    expect(d.mailQueue.queued).toEqual([]);
    expect(await d.enrollments.get('c1', 'l9')).toBeUndefined();
    expect(d.mailer.sent).toEqual([]);
    expect(d.orders.orders.get(order.id)).toMatchObject({ status: 'paid', learnerId: null });
  });

  it("enrols an existing learner and writes no receipt with the payment: the order's paid record owes it, sent once from the stream", async () => {
    const { d, order } = await pendingOrder('ann@example.com');
    await d.users.createUser({ id: 'l1', email: 'ann@example.com', role: 'learner', createdAt: 'x' });
    const before = imageOf(d.orders.orders.get(order.id)!);
    expect(await applyCheckoutEvent(d, completed(order, { email: 'typed-on-stripe@example.com' }))).toBe('paid');
    // The email given at checkout wins over what Stripe's page collected.
    expect(await d.enrollments.get('c1', 'l1')).toMatchObject({ status: 'active' });
    expect(d.orders.orders.get(order.id)).toMatchObject({ status: 'paid', learnerId: 'l1' });
    expect(d.mailer.sent, 'nothing sent by the webhook').toEqual([]);
    expect(d.mailQueue.queued, 'nothing queued with the payment').toEqual([]);
    expect(d.senderStarts).toEqual([]);
    // The stream's record of the order's move (decision 0054): the receipt, once however often the record comes.
    const owed = receiptOwed(before, imageOf(d.orders.orders.get(order.id)!));
    expect(owed).toEqual({ id: order.id, creatorId: 'u1', buyerEmail: 'ann@example.com', courseTitle: order.courseTitle, amount: 2900 });
    expect(await sendOrderReceipt(d, owed!)).toBe('sent');
    expect(await sendOrderReceipt(d, owed!), 'the record seen again').toBe('already');
    expect(d.mailer.sent.map((m) => [m.to, m.subject])).toEqual([['ann@example.com', 'Your purchase on Course Platform']]);
    expect(d.mailer.sent[0]!.text).not.toContain('Temporary password');
    // Not branded: the platform's own receipt, no sender name.
    expect(d.mailer.sent[0]).not.toHaveProperty('fromName');
    expect(d.mailer.sent[0]!.html).toContain('font-weight:600">Course Platform</p>');
  });

  it('pays once and enrols once whatever the number of deliveries and events', async () => {
    const { d, order } = await pendingOrder();
    const event = completed(order);
    expect(await applyCheckoutEvent(d, event)).toBe('paid');
    expect(await applyCheckoutEvent(d, event)).toBe('duplicate');
    expect(await applyCheckoutEvent(d, completed(order, {}, 'checkout.session.async_payment_succeeded'))).toBe('not-pending');
    await sendQueuedMail(d);
    await sendQueuedMail(d);
    expect(d.enrollments.calls('enroll')).toBe(1);
    expect(d.mailer.sent).toHaveLength(1);
  });

  it('finishes on the next delivery what a failed one started (the account exists, the order is still pending)', async () => {
    const { d, order } = await pendingOrder();
    d.orders.before('markPaid', (call) => {
      if (call === 1) throw new Error('DynamoDB unavailable');
    });
    const event = completed(order);
    await expect(applyCheckoutEvent(d, event)).rejects.toThrow('DynamoDB unavailable');
    expect(await applyCheckoutEvent(d, event)).toBe('paid');
    expect(d.orders.orders.get(order.id)?.status).toBe('paid');
    await sendQueuedMail(d);
    expect(d.directory.accounts.size).toBe(1);
    expect(d.mailer.sent).toHaveLength(1);
  });

  it('closes an expired checkout, and a later payment of it changes nothing', async () => {
    const { d, order } = await pendingOrder();
    expect(await applyCheckoutEvent(d, completed(order, { paymentStatus: 'unpaid' }, 'checkout.session.expired'))).toBe('expired');
    expect(await applyCheckoutEvent(d, completed(order))).toBe('not-pending');
    expect(d.enrollments.calls('enroll')).toBe(0);
  });

  it('ignores an event naming an order on another account, or an order that is not ours', async () => {
    const { d, order } = await pendingOrder();
    expect(await applyCheckoutEvent(d, { ...completed(order), account: 'acct_other' })).toBe('unknown');
    expect(await applyCheckoutEvent(d, completed({ id: 'no-such-order', checkoutSessionId: 'cs_x' }))).toBe('unknown');
    expect(d.orders.orders.get(order.id)?.status).toBe('pending');
  });

  it('records an unpaid completion (a payment still processing) without paying the order', async () => {
    const { d, order } = await pendingOrder();
    expect(await applyCheckoutEvent(d, completed(order, { paymentStatus: 'unpaid' }))).toBe('recorded');
    expect(d.orders.orders.get(order.id)?.status).toBe('pending');
  });

  it("refunds a paid order whose email belongs to another role, tells the buyer privately, and reports it (never retried)", async () => {
    const { d, order } = await pendingOrder();
    const event = completed(order, { email: 'creator@example.com' });
    expect(await applyCheckoutEvent(d, event)).toBe('unfulfillable');
    expect(d.enrollments.calls('enroll')).toBe(0);
    expect(d.orders.orders.get(order.id)).toMatchObject({ status: 'refunded', buyerEmail: 'creator@example.com', paymentIntentId: 'pi_1', learnerId: null });
    expect(d.connect.refunds).toEqual([{ accountId: 'acct_1', paymentIntentId: 'pi_1', idempotencyKey: `refund:${order.id}` }]);
    // The notice is queued with the refund, sent by the sender job.
    expect(await sendQueuedMail(d)).toEqual({ sent: 1, failed: 0, givenUp: 0 });
    expect(d.mailer.sent.map((m) => [m.to, m.subject])).toEqual([['creator@example.com', 'Course Platform: your payment was refunded']]);
    expect(d.mailer.sent[0]!.text).toContain('does not take courses');
    expect(d.alerts).toEqual([{ message: 'paid course order could not be fulfilled: refunded', fields: expect.objectContaining({ orderId: order.id, reason: 'cannot-take-courses' }) }]);
    expect(d.metrics.total('OrderUnfulfilled')).toBe(1);
    // In the creator's Sales as refunded; Stripe's redelivery and its charge.refunded echo change nothing.
    expect((await d.orders.listSales('u1', undefined, 25)).items.map((o) => o.status)).toEqual(['refunded']);
    expect(await applyCheckoutEvent(d, event)).toBe('duplicate');
    expect(await applyReversalEvent(d, { id: 'evt_echo', type: 'charge.refunded', account: 'acct_1', reversal: { paymentIntentId: 'pi_1', to: 'refunded', complete: true } })).toBe('not-pending');
    await sendQueuedMail(d);
    expect(d.mailer.sent).toHaveLength(1);
    expect(d.connect.refunds).toHaveLength(1);
  });

  it('refunds a learner who is enrolled in the course already (told by email), and leaves their place as it was', async () => {
    const { d, order } = await pendingOrder('ann@example.com');
    await d.users.createUser({ id: 'l1', email: 'ann@example.com', role: 'learner', createdAt: 'x' });
    await d.enrollments.enroll({ courseId: 'c1', learnerId: 'l1', creatorId: 'u1', learnerEmail: 'ann@example.com', learnerJoinedAt: 'x', courseTitle: 'Knife skills', enrolledAt: '2026-01-01T00:00:00.000Z' });
    expect(await applyCheckoutEvent(d, completed(order))).toBe('unfulfillable');
    expect(d.orders.orders.get(order.id)?.status).toBe('refunded');
    expect(d.connect.refunds).toHaveLength(1);
    expect((await d.enrollments.get('c1', 'l1'))?.status).toBe('active');
    await sendQueuedMail(d);
    expect(d.mailer.sent.map((m) => m.to)).toEqual(['ann@example.com']);
    expect(d.mailer.sent[0]!.text).toContain('enrolled in this course already');
  });

  it("refunds at once a payment that lands on an order its buyer's account deletion pseudonymised: their email written nowhere, no account, no mail (issue 37)", async () => {
    const { d, order } = await pendingOrder('ann@example.com');
    const pseudonym = emailPseudonym('ann@example.com');
    // The deletion's 'orders' step: the checkout expired at Stripe (this payment got in first), the buyer the pseudonym.
    d.orders.orders.set(order.id, { ...order, buyerEmail: pseudonym });
    const before = imageOf(d.orders.orders.get(order.id)!);
    const event = completed(order, { email: 'ann@example.com' });
    expect(await applyCheckoutEvent(d, event)).toBe('unfulfillable');
    expect(d.orders.orders.get(order.id)).toMatchObject({ status: 'refunded', buyerEmail: pseudonym, unfulfilled: 'buyer-deleted', learnerId: null });
    expect(d.connect.refunds).toEqual([{ accountId: 'acct_1', paymentIntentId: 'pi_1', idempotencyKey: `refund:${order.id}` }]);
    expect(d.mailQueue.queued).toEqual([]);
    expect(receiptOwed(before, imageOf(d.orders.orders.get(order.id)!))).toBeUndefined();
    expect(await sendQueuedMail(d)).toEqual({ sent: 0, failed: 0, givenUp: 0 });
    expect(d.mailer.sent).toEqual([]);
    expect(await d.users.getUserIdByEmail('ann@example.com')).toBeUndefined();
    expect(await d.users.getUserIdByEmail(pseudonym)).toBeUndefined();
    expect(JSON.stringify(d.orders.orders.get(order.id))).not.toContain('ann@example.com');
    expect(d.alerts.map((a) => a.fields['reason'])).toEqual(['buyer-deleted']);
    // Stripe's redelivery refunds nothing twice.
    expect(await applyCheckoutEvent(d, event)).toBe('duplicate');
    expect(d.connect.refunds).toHaveLength(1);
  });

  it('refunds and reports a paid session with no email at all, instead of failing on every delivery', async () => {
    const { d, order } = await pendingOrder();
    expect(await applyCheckoutEvent(d, completed(order, { email: null }))).toBe('unfulfillable');
    expect(d.orders.orders.get(order.id)).toMatchObject({ status: 'refunded', buyerEmail: null });
    expect(d.connect.refunds).toHaveLength(1);
    expect(d.mailer.sent).toHaveLength(0);
    expect(d.alerts.map((a) => a.fields['reason'])).toEqual(['no-email']);
  });

  it('finishes an automatic refund on the next delivery when the first stopped after Stripe refunded (one refund, one notice)', async () => {
    const { d, order } = await pendingOrder();
    d.orders.before('markUnfulfilled', (call) => {
      if (call === 1) throw new Error('DynamoDB unavailable');
    });
    const event = completed(order, { email: 'creator@example.com' });
    await expect(applyCheckoutEvent(d, event)).rejects.toThrow('DynamoDB unavailable');
    expect(await applyCheckoutEvent(d, event)).toBe('unfulfillable');
    expect(d.connect.refunds).toHaveLength(1);
    await sendQueuedMail(d);
    await sendQueuedMail(d);
    expect(d.mailer.sent).toHaveLength(1);
  });

  it('keeps the order paid when the receipt cannot be sent: queued with its mark, the sender job sends it on its next run, once', async () => {
    const { d, order } = await pendingOrder('ann@example.com');
    await d.users.createUser({ id: 'l1', email: 'ann@example.com', role: 'learner', createdAt: 'x' });
    d.mailer.before('send', (call) => {
      if (call === 1 || call === 2) throw new Error('SES throttled');
    });
    const before = imageOf(d.orders.orders.get(order.id)!);
    expect(await applyCheckoutEvent(d, completed(order))).toBe('paid');
    const owed = receiptOwed(before, imageOf(d.orders.orders.get(order.id)!))!;
    expect(await sendOrderReceipt(d, owed)).toBe('queued');
    expect(await sendOrderReceipt(d, owed), 'the record seen again: nothing queued twice').toBe('already');
    expect(d.mailQueue.queued).toEqual([expect.objectContaining({ id: `receipt:${order.id}`, to: 'ann@example.com', subject: 'Your purchase on Course Platform', tries: 0, dueAt: d.clock.now().toISOString() })]);
    expect(d.logged).toEqual([{ message: 'receipt send failed: queued for the mail sender', fields: { orderId: order.id, error: 'Error: SES throttled' } }]);
    expect(await sendQueuedMail(d)).toEqual({ sent: 0, failed: 1, givenUp: 0 });
    expect(d.orders.orders.get(order.id)?.status).toBe('paid');
    expect(await sendQueuedMail(d)).toEqual({ sent: 1, failed: 0, givenUp: 0 });
    expect(d.mailer.sent.map((m) => m.subject)).toEqual(['Your purchase on Course Platform']);
  });

  it('loses no receipt when the reaction dies between the send and its mark: the record retried sends it again (at least once)', async () => {
    const { d, order } = await pendingOrder('ann@example.com');
    await d.users.createUser({ id: 'l1', email: 'ann@example.com', role: 'learner', createdAt: 'x' });
    d.receipts.before('markSent', (call) => {
      if (call === 1) throw new Error('the function timed out');
    });
    const before = imageOf(d.orders.orders.get(order.id)!);
    const event = completed(order);
    expect(await applyCheckoutEvent(d, event)).toBe('paid');
    expect(await applyCheckoutEvent(d, event), "Stripe's redelivery: the order is paid once, its record not written again").toBe('duplicate');
    const owed = receiptOwed(before, imageOf(d.orders.orders.get(order.id)!))!;
    await expect(sendOrderReceipt(d, owed)).rejects.toThrow('the function timed out');
    expect(await sendOrderReceipt(d, owed)).toBe('sent');
    expect(await sendOrderReceipt(d, owed)).toBe('already');
    expect(d.mailer.sent.map((m) => m.to)).toEqual(['ann@example.com', 'ann@example.com']);
  });

  it('owes no receipt for a change that is not a course order paid with its learner', () => {
    const pending = { pk: 'ORDER#o1', sk: 'ORDER', id: 'o1', creatorId: 'u1', status: 'pending', buyerEmail: 'ann@example.com', courseTitle: 'T', amount: 100, learnerId: null, seats: null };
    const paid = { ...pending, status: 'paid', learnerId: 'l1' };
    expect(receiptOwed(pending, paid)).toEqual({ id: 'o1', creatorId: 'u1', buyerEmail: 'ann@example.com', courseTitle: 'T', amount: 100 });
    expect(receiptOwed(paid, { ...paid, learnerId: 'l2' }), 'a paid order changed again').toBeUndefined();
    expect(receiptOwed(pending, { ...paid, learnerId: null }), "a new buyer's (invited with what was bought) or a payment undone at once").toBeUndefined();
    expect(receiptOwed(pending, { ...paid, seats: 5 }), "a team order's (queued with the payment)").toBeUndefined();
    expect(receiptOwed({ ...pending, sk: 'RECEIPT' }, { ...paid, sk: 'RECEIPT' }), 'not the order item').toBeUndefined();
    expect(receiptOwed(pending, { ...paid, status: 'refunded' })).toBeUndefined();
  });
});

describe('payment events in any order', () => {
  const reversal = (to: 'refunded' | 'disputed', id = 'evt_rev') => ({ id, type: to === 'refunded' ? 'charge.refunded' : 'charge.dispute.created', account: 'acct_1', reversal: { paymentIntentId: 'pi_1', to, complete: true } });

  for (const to of ['refunded', 'disputed'] as const) {
    it(`parks a ${to === 'refunded' ? 'refund' : 'dispute'} that arrives before its payment, and applies it when the payment arrives: nobody enrolled, no receipt`, async () => {
      const { d, order } = await pendingOrder('ann@example.com');
      await d.users.createUser({ id: 'l1', email: 'ann@example.com', role: 'learner', createdAt: 'x' });
      expect(await applyReversalEvent(d, reversal(to))).toBe('parked');
      expect(await applyReversalEvent(d, reversal(to)), 'a redelivery of it').toBe('duplicate');
      expect(await applyCheckoutEvent(d, completed(order))).toBe(to);
      expect(d.orders.orders.get(order.id)?.status).toBe(to);
      expect(await d.enrollments.get('c1', 'l1')).toBeUndefined();
      expect(d.mailer.sent).toHaveLength(0);
      expect((await d.orders.salesWindow('u1', '2026-01-01', '2026-12-31')).refunds).toBe(1);
    });
  }

  it("parks a refund that finds the payment's intent while its order is still pending (the intent is written first), and the payment applies it", async () => {
    const { d, order } = await pendingOrder('ann@example.com');
    await d.users.createUser({ id: 'l1', email: 'ann@example.com', role: 'learner', createdAt: 'x' });
    // Between the payment's two writes: the intent names the order, which is still pending.
    const byIntent = d.orders.getByPaymentIntent.bind(d.orders);
    d.orders.getByPaymentIntent = async (pi) => (pi === 'pi_1' && d.orders.orders.get(order.id)?.status === 'pending' ? structuredClone(d.orders.orders.get(order.id)) : byIntent(pi));
    expect(await applyReversalEvent(d, reversal('refunded'))).toBe('parked');
    expect(await applyCheckoutEvent(d, completed(order))).toBe('refunded');
    expect(d.orders.orders.get(order.id)?.status).toBe('refunded');
    expect(await d.enrollments.get('c1', 'l1')).toBeUndefined();
    // Once the order moved, a reversal is not parked: it applies (here: refunded already, once).
    expect(await applyReversalEvent(d, reversal('refunded', 'evt_rev_2'))).toBe('not-pending');
  });

  it('does not refund again at Stripe a payment whose dispute arrived first, when the order cannot be fulfilled either', async () => {
    const { d, order } = await pendingOrder();
    expect(await applyReversalEvent(d, reversal('disputed'))).toBe('parked');
    expect(await applyCheckoutEvent(d, completed(order, { email: 'creator@example.com' }))).toBe('unfulfillable');
    expect(d.connect.refunds).toEqual([]);
    expect(d.orders.orders.get(order.id)?.status).toBe('refunded');
    expect(d.enrollments.calls('enroll')).toBe(0);
  });

  it('applies a refund that arrives after its payment at once (the other order)', async () => {
    const { d, order } = await pendingOrder('ann@example.com');
    await d.users.createUser({ id: 'l1', email: 'ann@example.com', role: 'learner', createdAt: 'x' });
    expect(await applyCheckoutEvent(d, completed(order))).toBe('paid');
    expect((await d.enrollments.get('c1', 'l1'))?.status).toBe('active');
    expect(await applyReversalEvent(d, reversal('refunded'))).toBe('refunded');
    expect(d.orders.orders.get(order.id)?.status).toBe('refunded');
    expect((await d.enrollments.get('c1', 'l1'))?.status).toBe('removed');
  });

  it('applies a refund parked while the payment was being written (it found no payment, the payment found no parked refund yet)', async () => {
    const { d, order } = await pendingOrder('ann@example.com');
    await d.users.createUser({ id: 'l1', email: 'ann@example.com', role: 'learner', createdAt: 'x' });
    // The refund parks between the payment's first look and its write.
    d.orders.before('markPaid', async () => {
      expect(await applyReversalEvent(d, reversal('refunded'))).toBe('parked');
    });
    expect(await applyCheckoutEvent(d, completed(order))).toBe('refunded');
    expect(d.orders.orders.get(order.id)?.status).toBe('refunded');
    expect((await d.enrollments.get('c1', 'l1'))?.status, 'no enrolment outlives its refund').toBe('removed');
  });
});

/** The school on top of an email (issue 32): its logo's lasting link, named for those who do not load images. */
const LOGO = `<img src="${CLAY_SCHOOL.logoUrl}" alt="Clay &amp; Kiln"`;

describe("a branded creator's order emails (issue 32)", () => {
  it("a learner's receipt comes from the school: its name as the sender's and first, its logo on top", async () => {
    const { d, order } = await pendingOrder('ann@example.com');
    d.brand('u1');
    await d.users.createUser({ id: 'l1', email: 'ann@example.com', role: 'learner', createdAt: 'x' });
    const before = imageOf(d.orders.orders.get(order.id)!);
    expect(await applyCheckoutEvent(d, completed(order))).toBe('paid');
    expect(await sendOrderReceipt(d, receiptOwed(before, imageOf(d.orders.orders.get(order.id)!))!)).toBe('sent');
    const [receipt] = d.mailer.sent;
    expect(receipt).toMatchObject({ to: 'ann@example.com', fromName: 'Clay & Kiln', subject: 'Your purchase on Course Platform' });
    expect(receipt!.text.startsWith('Clay & Kiln: thank you for buying the course')).toBe(true);
    expect(receipt!.html).toContain(LOGO);
    expect(receipt!.html).toContain('Sent by Course Platform for Clay &amp; Kiln.');
  });

  it("a receipt SES refused goes later from the queue under the school's name all the same", async () => {
    const { d, order } = await pendingOrder('ann@example.com');
    d.brand('u1');
    await d.users.createUser({ id: 'l1', email: 'ann@example.com', role: 'learner', createdAt: 'x' });
    const before = imageOf(d.orders.orders.get(order.id)!);
    await applyCheckoutEvent(d, completed(order));
    d.mailer.before('send', (call) => {
      if (call === 1) throw new Error('SES throttled');
    });
    expect(await sendOrderReceipt(d, receiptOwed(before, imageOf(d.orders.orders.get(order.id)!))!)).toBe('queued');
    expect(await sendQueuedMail(d)).toEqual({ sent: 1, failed: 0, givenUp: 0 });
    expect(d.mailer.sent).toEqual([expect.objectContaining({ to: 'ann@example.com', fromName: 'Clay & Kiln', html: expect.stringContaining(LOGO) })]);
  });

  it("a new buyer is invited by the school, and a refunded buyer told by it", async () => {
    const { d, order } = await pendingOrder();
    d.brand('u1');
    await applyCheckoutEvent(d, completed(order));
    await sendQueuedMail(d);
    expect(d.mailer.sent).toEqual([expect.objectContaining({ to: 'new@example.com', fromName: 'Clay & Kiln', html: expect.stringContaining(LOGO) })]);
    expect(d.mailer.sent[0]!.text.startsWith('Clay & Kiln: thank you for buying the course')).toBe(true);

    const other = await pendingOrder();
    other.d.brand('u1');
    expect(await applyCheckoutEvent(other.d, completed(other.order, { email: 'creator@example.com' }))).toBe('unfulfillable');
    await sendQueuedMail(other.d);
    expect(other.d.mailer.sent).toEqual([expect.objectContaining({ to: 'creator@example.com', subject: 'Course Platform: your payment was refunded', fromName: 'Clay & Kiln' })]);
    expect(other.d.mailer.sent[0]!.html).toContain(LOGO);
  });

  it('another creator\'s branding, or none, leaves the emails as the platform\'s', async () => {
    const { d, order } = await pendingOrder();
    d.brand('u2');
    await applyCheckoutEvent(d, completed(order));
    await sendQueuedMail(d);
    expect(d.mailer.sent).toHaveLength(1);
    expect(d.mailer.sent[0]).not.toHaveProperty('fromName');
    expect(d.mailer.sent[0]!.html).not.toContain('<img');
    expect(d.mailer.sent[0]!.text.startsWith('Course Platform: thank you for buying the course')).toBe(true);
  });
});
