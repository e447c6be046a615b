import { describe, expect, it } from 'vitest';
import { WORK_HOLD_MS, sendQueuedMail } from '#core/mail/mail-queue.ts';
import { startCourseCheckout } from '#core/sales/checkout.ts';
import { applyCheckoutEvent, applyReversalEvent } from '#core/sales/orders.ts';
import { APP_ORIGIN } from '#test/functions/fakes/deps.ts';
import { notReady, salesDeps } from '#test/functions/fakes/payouts.ts';

/**
 * Issue 28 point 4: a new buyer's account, invitation and enrolment are queued by the webhook and done by the sender
 * job; whatever dies where, the buyer ends with one account, one enrolment and an invitation that works (lost 0,
 * doubled 0), and an order undone meanwhile gives nothing.
 */
const body = { successUrl: `${APP_ORIGIN}/c/c1?purchase=success`, cancelUrl: `${APP_ORIGIN}/c/c1` };

const paidByNewBuyer = async () => {
  const d = salesDeps();
  await d.payouts.create({ userId: 'u1', accountId: 'acct_1', ...notReady, chargesEnabled: true, lastEventAt: 1, createdAt: 'x', updatedAt: 'x' });
  await startCourseCheckout(d, { courseId: 'c1', body: { ...body, email: 'new@example.com' } });
  const order = d.orders.orders.get('order-1')!;
  const event = {
    id: 'evt_paid',
    type: 'checkout.session.completed',
    account: 'acct_1',
    checkout: { sessionId: order.checkoutSessionId!, orderId: order.id, paymentStatus: 'paid', amountTotal: 2900, amountDiscount: 0, email: 'new@example.com', paymentIntentId: 'pi_1' },
  };
  expect(await applyCheckoutEvent(d, event)).toBe('paid');
  return { d, order, event };
};

const invitations = (d: ReturnType<typeof salesDeps>) => d.mailer.sent.filter((m) => m.text.includes('Temporary password'));

describe("a new buyer's account, from the queue", () => {
  it('is made once, enrolled once and invited once, however often the sender runs and the webhook is delivered', async () => {
    const { d, event } = await paidByNewBuyer();
    expect(await applyCheckoutEvent(d, event)).toBe('duplicate');
    await Promise.all([sendQueuedMail(d), sendQueuedMail(d)]);
    await sendQueuedMail(d);
    d.clock.advance(WORK_HOLD_MS);
    await sendQueuedMail(d);
    expect(d.directory.accounts.size).toBe(1);
    expect(d.enrollments.calls('enroll')).toBe(1);
    expect(invitations(d)).toHaveLength(1);
    expect(d.mailer.sent).toHaveLength(1);
  });

  it('is finished by a later run when the sender dies after making the account (no second invitation, no receipt)', async () => {
    const { d, order } = await paidByNewBuyer();
    d.enrollments.before('enroll', (call) => {
      if (call === 1) throw new Error('the function timed out');
    });
    // The run dies mid-work: the work throws and its return to the queue fails too; it is held until its hold ends.
    d.mailQueue.before('move', (call) => {
      if (call === 2) throw new Error('the function timed out');
    });
    expect(await sendQueuedMail(d)).toEqual({ sent: 0, failed: 1, givenUp: 0 });
    expect(await sendQueuedMail(d), 'held').toEqual({ sent: 0, failed: 0, givenUp: 0 });
    d.clock.advance(WORK_HOLD_MS);
    expect(await sendQueuedMail(d)).toEqual({ sent: 1, failed: 0, givenUp: 0 });
    const learnerId = (await d.users.getUserIdByEmail('new@example.com'))!;
    expect(await d.enrollments.get('c1', learnerId)).toMatchObject({ status: 'active' });
    expect(d.orders.orders.get(order.id)).toMatchObject({ status: 'paid', learnerId });
    expect(invitations(d)).toHaveLength(1);
    expect(d.mailer.sent).toHaveLength(1);
    expect(d.mailQueue.queued).toEqual([]);
  });

  it('invites again with a new password when the sender dies between the sign-in account and the profile: the newest invitation works', async () => {
    const { d } = await paidByNewBuyer();
    d.users.before('createUser', (call) => {
      if (call === 1) throw new Error('DynamoDB unavailable');
    });
    expect(await sendQueuedMail(d)).toEqual({ sent: 0, failed: 1, givenUp: 0 });
    expect(await sendQueuedMail(d)).toEqual({ sent: 1, failed: 0, givenUp: 0 });
    expect(d.directory.accounts.size, 'one sign-in account, taken over').toBe(1);
    const sent = invitations(d);
    expect(sent.at(-1)!.text).toContain('Temporary password: Temp-Pass-2aA');
    expect(d.enrollments.calls('enroll')).toBe(1);
  });

  it('gives nothing when the order was refunded before its account was made', async () => {
    const { d, order } = await paidByNewBuyer();
    expect(await applyReversalEvent(d, { id: 'evt_refund', type: 'charge.refunded', account: 'acct_1', reversal: { paymentIntentId: 'pi_1', to: 'refunded', complete: true } })).toBe('refunded');
    expect(await sendQueuedMail(d)).toEqual({ sent: 1, failed: 0, givenUp: 0 });
    expect(d.directory.accounts.size).toBe(0);
    expect(d.enrollments.calls('enroll')).toBe(0);
    expect(d.mailer.sent).toEqual([]);
    expect(d.orders.orders.get(order.id)?.status).toBe('refunded');
  });

  it('takes the place back when the refund lands between the enrolment and the order naming its learner', async () => {
    const { d, order } = await paidByNewBuyer();
    d.orders.before('setLearner', async () => {
      expect(await applyReversalEvent(d, { id: 'evt_refund', type: 'charge.refunded', account: 'acct_1', reversal: { paymentIntentId: 'pi_1', to: 'refunded', complete: true } })).toBe('refunded');
    });
    await sendQueuedMail(d);
    const learnerId = (await d.users.getUserIdByEmail('new@example.com'))!;
    expect((await d.enrollments.get('c1', learnerId))?.status, 'no enrolment outlives its refund').toBe('removed');
    expect(d.orders.orders.get(order.id)?.status).toBe('refunded');
  });

  it("reports a paid order whose email another role took before its account was made (for its creator to refund)", async () => {
    const { d, order } = await paidByNewBuyer();
    await d.users.createUser({ id: 'c9', email: 'new@example.com', role: 'creator', createdAt: d.clock.now().toISOString() });
    expect(await sendQueuedMail(d)).toEqual({ sent: 1, failed: 0, givenUp: 0 });
    expect(d.enrollments.calls('enroll')).toBe(0);
    expect(d.alerts).toEqual([{ message: 'paid course order could not be fulfilled after payment: refund it', fields: expect.objectContaining({ orderId: order.id }) }]);
    expect(d.metrics.total('OrderUnfulfilled')).toBe(1);
    expect(d.mailQueue.queued, 'reported once, not retried').toEqual([]);
  });
});
