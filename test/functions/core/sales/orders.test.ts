import { describe, expect, it } from 'vitest';
import type { ConnectCheckout } from '#core/ports.ts';
import { startCourseCheckout } from '#core/sales/checkout.ts';
import { applyCheckoutEvent } from '#core/sales/orders.ts';
import { MAIL_HOLD_MS, sendQueuedMail } from '#core/mail/mail-queue.ts';
import { APP_ORIGIN } from '#test/functions/fakes/deps.ts';
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
  it('makes a learner account for a new email, invites it with what was bought, enrols it, and pays the order', async () => {
    const { d, order } = await pendingOrder();
    expect(await applyCheckoutEvent(d, completed(order))).toBe('paid');
    const learnerId = await d.users.getUserIdByEmail('new@example.com');
    expect(await d.users.getUser(learnerId!)).toMatchObject({ role: 'learner' });
    expect(await d.enrollments.get('c1', learnerId!)).toMatchObject({ status: 'active', creatorId: 'u1', courseTitle: 'Knife skills' });
    expect(d.orders.orders.get(order.id)).toMatchObject({ status: 'paid', amount: 2900, buyerEmail: 'new@example.com', learnerId, paymentIntentId: 'pi_1', paidAt: d.clock.now().toISOString() });
    expect(d.mailer.sent).toHaveLength(1);
    expect(d.mailer.sent[0]).toMatchObject({ to: 'new@example.com', subject: 'Your purchase on Course Platform' });
    expect(d.mailer.sent[0]!.text).toContain('£29');
    expect(d.mailer.sent[0]!.text).toContain('Temporary password: Temp-Pass-1aA');
  });

  it('enrols an existing learner and sends them a receipt', async () => {
    const { d, order } = await pendingOrder('ann@example.com');
    await d.users.createUser({ id: 'l1', email: 'ann@example.com', role: 'learner', createdAt: 'x' });
    expect(await applyCheckoutEvent(d, completed(order, { email: 'typed-on-stripe@example.com' }))).toBe('paid');
    // The email given at checkout wins over what Stripe's page collected.
    expect(await d.enrollments.get('c1', 'l1')).toMatchObject({ status: 'active' });
    expect(d.mailer.sent.map((m) => [m.to, m.subject])).toEqual([['ann@example.com', 'Your purchase on Course Platform']]);
    expect(d.mailer.sent[0]!.text).not.toContain('Temporary password');
  });

  it('pays once and enrols once whatever the number of deliveries and events', async () => {
    const { d, order } = await pendingOrder();
    const event = completed(order);
    expect(await applyCheckoutEvent(d, event)).toBe('paid');
    expect(await applyCheckoutEvent(d, event)).toBe('duplicate');
    expect(await applyCheckoutEvent(d, completed(order, {}, 'checkout.session.async_payment_succeeded'))).toBe('not-pending');
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
    expect(d.directory.accounts.size).toBe(1);
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

  it("does not enrol an email of another role typed on Stripe's page, and says so in the log", async () => {
    const { d, order } = await pendingOrder();
    expect(await applyCheckoutEvent(d, completed(order, { email: 'creator@example.com' }))).toBe('unfulfillable');
    expect(d.enrollments.calls('enroll')).toBe(0);
    expect(d.logged.map((l) => l.message)).toEqual(['paid course order has a buyer who cannot take courses']);
  });

  it('keeps the order paid when the receipt cannot be sent, and queues the receipt for the sender job', async () => {
    const { d, order } = await pendingOrder('ann@example.com');
    await d.users.createUser({ id: 'l1', email: 'ann@example.com', role: 'learner', createdAt: 'x' });
    d.mailer.before('send', (call) => {
      if (call === 1) throw new Error('SES throttled');
    });
    expect(await applyCheckoutEvent(d, completed(order))).toBe('paid');
    // Written with the payment, tried once, due again at once for the sender job.
    expect(d.mailQueue.queued).toEqual([expect.objectContaining({ to: 'ann@example.com', subject: 'Your purchase on Course Platform', tries: 1, dueAt: d.clock.now().toISOString() })]);
    expect(d.logged).toEqual([{ message: 'email send failed: due again', fields: expect.objectContaining({ email: 'purchase receipt', orderId: order.id, error: 'Error: SES throttled' }) }]);
    expect(await sendQueuedMail(d)).toEqual({ sent: 1, failed: 0, givenUp: 0 });
    expect(d.mailer.sent.map((m) => m.subject)).toEqual(['Your purchase on Course Platform']);
  });

  it('loses no receipt when the delivery dies between the payment and the send: the sender job sends it when its hold ends', async () => {
    const { d, order } = await pendingOrder('ann@example.com');
    await d.users.createUser({ id: 'l1', email: 'ann@example.com', role: 'learner', createdAt: 'x' });
    d.mailer.before('send', (call) => {
      if (call === 1) throw new Error('the function timed out');
    });
    d.mailQueue.before('move', (call) => {
      if (call === 1) throw new Error('the function timed out');
    });
    const event = completed(order);
    expect(await applyCheckoutEvent(d, event)).toBe('paid');
    expect(await applyCheckoutEvent(d, event), "Stripe's redelivery: the order is paid once, no second receipt").toBe('duplicate');
    expect(await sendQueuedMail(d), 'still held').toEqual({ sent: 0, failed: 0, givenUp: 0 });
    d.clock.advance(MAIL_HOLD_MS);
    expect(await sendQueuedMail(d)).toEqual({ sent: 1, failed: 0, givenUp: 0 });
    expect(d.mailer.sent.map((m) => m.to)).toEqual(['ann@example.com']);
  });
});
