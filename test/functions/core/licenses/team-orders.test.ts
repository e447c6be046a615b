import { describe, expect, it } from 'vitest';
import { ConflictError } from '#core/errors.ts';
import { assignSeat, licenseIdOf } from '#core/licenses/licenses.ts';
import { startCourseCheckout, TEAMS_NOT_ON_SALE } from '#core/sales/checkout.ts';
import { sendQueuedMail } from '#core/mail/mail-queue.ts';
import { applyCheckoutEvent } from '#core/sales/orders.ts';
import { refundSale } from '#core/sales/sales.ts';
import { APP_ORIGIN, creator } from '#test/functions/fakes/deps.ts';
import { onBehalfFakes } from '#test/functions/fakes/on-behalf.ts';
import { notReady, pricedCourse, salesDeps } from '#test/functions/fakes/payouts.ts';

const body = { successUrl: `${APP_ORIGIN}/c/c1?purchase=success`, cancelUrl: `${APP_ORIGIN}/c/c1` };

/** A creator (u1) selling c1 at £29, or £10 a seat to teams, on a connected account. */
const world = async (seatPriceAmount = 1000) => {
  const d = salesDeps({ courses: [pricedCourse({ seatPriceAmount })] });
  await d.payouts.create({ userId: 'u1', accountId: 'acct_1', ...notReady, chargesEnabled: true, lastEventAt: 1, createdAt: 'x', updatedAt: 'x' });
  // Not on a trial (a seat's invitation is not capped): the creator's Pro plan of salesDeps, a fresh send quota.
  const { sendQuota } = onBehalfFakes();
  return { ...d, sendQuota };
};
type World = Awaited<ReturnType<typeof world>>;

let n = 0;
/** A team checkout paid on Stripe's page: the order, as stored after the webhook (delivered `times`). */
const buyTeam = async (d: World, email: string, seats: number, times = 1) => {
  await startCourseCheckout(d, { courseId: 'c1', body: { ...body, email, seats }, idempotencyKey: `team-${++n}` });
  const order = [...d.orders.orders.values()].find((o) => o.status === 'pending')!;
  const event = {
    id: `evt_team_${n}`,
    type: 'checkout.session.completed',
    account: 'acct_1',
    checkout: { sessionId: order.checkoutSessionId!, orderId: order.id, paymentStatus: 'paid', amountTotal: order.amount, amountDiscount: 0, email, paymentIntentId: `pi_team${n}` },
  };
  for (let i = 0; i < times; i++) await applyCheckoutEvent(d, event);
  // What the webhook queued (a new leader's account and licence, a receipt), done by the sender job.
  await sendQueuedMail(d);
  return d.orders.orders.get(order.id)!;
};

describe('buying a team licence', () => {
  it("checks out seats x the seat price on the creator's account, for a leader's email or a new one", async () => {
    const d = await world();
    await startCourseCheckout(d, { courseId: 'c1', body: { ...body, email: 'boss@example.com', seats: 3 } });
    expect([...d.orders.orders.values()][0]).toMatchObject({ price: 3000, amount: 3000, seats: 3, status: 'pending' });
    expect([...d.connect.checkouts.values()][0]).toMatchObject({ amount: 3000, courseTitle: 'Knife skills: team licence, 3 seats' });
    await expect(startCourseCheckout(await world(0), { courseId: 'c1', body: { ...body, seats: 3 } })).rejects.toThrow(TEAMS_NOT_ON_SALE);
  });

  it('once paid: the buyer becomes the group leader (invited), owning a licence of the seats bought, once however often Stripe delivers', async () => {
    const d = await world();
    const order = await buyTeam(d, 'boss@example.com', 3, 2);
    expect(order).toMatchObject({ status: 'paid', seats: 3, learnerId: null });
    const leaderId = (await d.users.getUserIdByEmail('boss@example.com'))!;
    expect((await d.users.getUser(leaderId))?.role).toBe('leader');
    expect(await d.licenses.get(licenseIdOf(order.id))).toMatchObject({ leaderId, courseId: 'c1', seatsTotal: 3, seatsUsed: 0, source: 'purchased', orderId: order.id, status: 'active' });
    expect(d.licenses.stored.size).toBe(1);
    expect(d.mailer.sent.filter((m) => m.to === 'boss@example.com').map((m) => m.subject)).toEqual(['You lead a team on Course Platform']);
  });

  it("takes a learner's email at checkout like any other, then refunds the paid team order and tells the buyer: a learner cannot lead", async () => {
    const d = await world();
    await d.users.createUser({ id: 'l9', email: 'learner@example.com', role: 'learner', createdAt: 'x' });
    const order = await buyTeam(d, 'learner@example.com', 3);
    expect(order).toMatchObject({ status: 'refunded', seats: 3, buyerEmail: 'learner@example.com' });
    expect(d.connect.refunds).toEqual([{ accountId: 'acct_1', paymentIntentId: order.paymentIntentId, idempotencyKey: `refund:${order.id}` }]);
    expect(d.licenses.stored.size).toBe(0);
    expect((await d.users.getUser('l9'))?.role).toBe('learner');
    expect(d.mailer.sent.map((m) => [m.to, m.subject])).toEqual([['learner@example.com', 'Course Platform: your payment was refunded']]);
    expect(d.mailer.sent[0]!.text).toContain('does not lead teams');
  });

  it('a leader who has an account gets a receipt with the way to their team; a refund ends the licence and its seats', async () => {
    const d = await world();
    await d.users.createUser({ ...creator({ id: 'lead1', email: 'lead@example.com', role: 'leader' }) });
    const order = await buyTeam(d, 'lead@example.com', 2);
    expect(d.mailer.sent.at(-1)).toMatchObject({ to: 'lead@example.com', subject: 'Your team licence on Course Platform' });
    expect(d.mailer.sent.at(-1)!.text).toContain(`${APP_ORIGIN}/dashboard/leader/groups`);

    const licenseId = licenseIdOf(order.id);
    await assignSeat(d, { leaderId: 'lead1', licenseId, email: 'ann@example.com' });
    const ann = (await d.users.getUserIdByEmail('ann@example.com'))!;
    expect((await d.enrollments.get('c1', ann))?.status).toBe('active');
    await refundSale(d, { creatorId: 'u1', orderId: order.id });
    expect((await d.licenses.get(licenseId))?.status).toBe('ended');
    expect((await d.enrollments.get('c1', ann))?.status).toBe('removed');
    await expect(assignSeat(d, { leaderId: 'lead1', licenseId, email: 'bob@example.com' })).rejects.toThrow(ConflictError);
  });
});

describe("a branded creator's team emails (issue 32)", () => {
  it("a new leader's invitation and a known leader's receipt come from the school, its logo on top", async () => {
    const d = await world();
    d.brand('u1');
    await buyTeam(d, 'boss@example.com', 3);
    await d.users.createUser({ ...creator({ id: 'lead1', email: 'lead@example.com', role: 'leader' }) });
    await buyTeam(d, 'lead@example.com', 2);
    const mails = d.mailer.sent.filter((m) => m.to === 'boss@example.com' || m.to === 'lead@example.com');
    expect(mails.map((m) => [m.to, m.subject, m.fromName])).toEqual([
      ['boss@example.com', 'You lead a team on Course Platform', 'Clay & Kiln'],
      ['lead@example.com', 'Your team licence on Course Platform', 'Clay & Kiln'],
    ]);
    for (const mail of mails) expect(mail.html).toContain('<img src="https://app.example/api/public/schools/u1/logo?v=logo-1" alt="Clay &amp; Kiln"');
    expect(mails[1]!.text.startsWith('Clay & Kiln: thank you for buying 2 seats')).toBe(true);
  });
});
