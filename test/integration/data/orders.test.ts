import { beforeAll, describe, expect, it } from 'vitest';
import type { Order } from '#core/ports.ts';
import { billingKeys } from '#data/billing.ts';
import { mailQueueKey } from '#data/mail-queue.ts';
import { backfillBuyerIndex, dynamoOrders, listOrdersByBuyer, orderKeys } from '#data/orders.ts';
import { readCounter } from '#data/sharded-counters.ts';
import { pendingOrder } from '#test/functions/fakes/orders.ts';
import { eventually, useLocalCloudEnv } from '../support.ts';
import { putRaw, rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const order = (over: Partial<Order> = {}): Order => pendingOrder({ id: unique('order'), creatorId: unique('creator'), ...over });
const event = () => ({ id: unique('evt'), type: 'checkout.session.completed' });
const paid = { amount: 2500, discount: 400, buyerEmail: 'ann@example.com', learnerId: 'l1', paymentIntentId: 'pi_1', paidAt: '2026-11-25T10:05:00.000Z' };

describe('course orders (DynamoDB Local)', () => {
  it('stores a pending order once and keeps its checkout', async () => {
    const orders = dynamoOrders();
    const o = order();
    expect(await orders.create(o)).toBe(true);
    expect(await orders.create({ ...o, price: 1 })).toBe(false);
    await orders.setCheckout(o.id, { id: 'cs_1', url: 'https://pay.example/cs_1' });
    expect(await orders.get(o.id)).toEqual({ ...o, checkoutSessionId: 'cs_1', checkoutUrl: 'https://pay.example/cs_1' });
    expect(await orders.get(unique('missing'))).toBeUndefined();
  });

  it("pays an order once, lists it in the creator's sales and counts it in that day's and month's sales", async () => {
    const orders = dynamoOrders();
    const o = order({ couponCode: 'SPRING25' });
    await orders.create(o);
    const e = event();
    expect(await orders.markPaid({ event: e, orderId: o.id, paid })).toBe('applied');
    // The paying event is kept on the order, not recorded apart (decision 0038): its redelivery is known by the order.
    expect(await rawItem(billingKeys.event(e.id))).toBeUndefined();
    expect(await orders.markPaid({ event: e, orderId: o.id, paid })).toBe('duplicate');
    expect(await rawItem(billingKeys.event(e.id))).toBeUndefined();
    // Another event for the paid order: recorded, and its redelivery a duplicate by that record.
    const other = event();
    expect(await orders.markPaid({ event: other, orderId: o.id, paid })).toBe('not-pending');
    expect(await rawItem(billingKeys.event(other.id))).toMatchObject({ eventType: other.type });
    expect(await orders.markPaid({ event: other, orderId: o.id, paid })).toBe('duplicate');
    expect(await rawItem(orderKeys.order(o.id))).toMatchObject({ ...paid, status: 'paid', paidEventId: e.id, gsi1pk: `CREATOR#${o.creatorId}#SALES`, gsi1sk: `${paid.paidAt}#${o.id}` });
    // The sales figures come from the table's stream (decision 0040): a batch window after the payment, counted once.
    const counted = () => readCounter(orderKeys.month(o.creatorId, paid.paidAt), { attributes: ['revenue', 'sales', 'discount'], consistent: true });
    expect(await eventually(counted, (figures) => figures['sales'] === 1)).toEqual({ revenue: 2500, sales: 1, discount: 400 });
    // The day, the course and the coupon in one packed number each (data/packed-counters.ts).
    expect(await orders.salesWindow(o.creatorId, '2026-11-01', '2026-11-30')).toEqual({
      days: [{ date: '2026-11-25', revenue: 2500, sales: 1 }],
      refunds: 0,
      views: 0,
      checkouts: 0,
      byCourse: { 'course-1': { revenue: 2500, sales: 1 } },
      byCoupon: { SPRING25: { redemptions: 1, discount: 400 } },
    });
    await expect(orders.markPaid({ event: event(), orderId: unique('nope'), paid })).rejects.toThrow(/not stored/);
  });

  it("lists a buyer's orders by their email (any case), paid, refunded at once or pending, following the email Stripe was given, a page at a time", async () => {
    const orders = dynamoOrders();
    const buyer = `${unique('buyer')}@example.com`.toLowerCase();
    const ids = (items: Record<string, unknown>[]) => items.map((item) => item['id']);
    // Pending with the email given at checkout; paid under another address Stripe was given; refunded at once.
    const pending = order({ buyerEmail: buyer.toUpperCase(), createdAt: '2026-11-25T09:00:00.000Z' });
    const moved = order({ buyerEmail: buyer, createdAt: '2026-11-25T09:01:00.000Z' });
    const paidHere = order({ buyerEmail: null, createdAt: '2026-11-25T09:02:00.000Z' });
    const refunded = order({ buyerEmail: null, createdAt: '2026-11-25T09:03:00.000Z' });
    for (const o of [pending, moved, paidHere, refunded]) await orders.create(o);
    expect(ids((await listOrdersByBuyer(buyer, undefined, 10)).items)).toEqual([pending.id, moved.id]);
    await orders.markPaid({ event: event(), orderId: moved.id, paid: { ...paid, buyerEmail: `other-${buyer}`, paymentIntentId: null } });
    await orders.markPaid({ event: event(), orderId: paidHere.id, paid: { ...paid, buyerEmail: buyer, paymentIntentId: null } });
    await orders.markUnfulfilled({ event: event(), orderId: refunded.id, refunded: { amount: 2500, discount: 0, buyerEmail: buyer, paymentIntentId: null, at: paid.paidAt }, reason: 'enrolled-already' });
    const first = await listOrdersByBuyer(buyer, undefined, 2);
    expect(ids(first.items)).toEqual([pending.id, paidHere.id]);
    const second = await listOrdersByBuyer(buyer, first.nextCursor ?? undefined, 2);
    expect(ids(second.items)).toEqual([refunded.id]);
    expect(second.nextCursor).toBeNull();
    expect(ids((await listOrdersByBuyer(`other-${buyer}`, undefined, 10)).items)).toEqual([moved.id]);
    expect(await rawItem(orderKeys.order(refunded.id))).toMatchObject({ status: 'refunded', buyerEmail: buyer, gsi2pk: `BUYER#${buyer}` });
  });

  it('gives orders from before the buyer index its keys, once; an order with no buyer, or a deleted one, stays out', async () => {
    const buyer = `${unique('old-buyer')}@example.com`.toLowerCase();
    const old = order({ buyerEmail: buyer });
    const anonymous = order({ buyerEmail: null });
    const erased = order({ buyerEmail: `deleted-${unique('x')}@deleted.invalid` });
    for (const o of [old, anonymous, erased]) await putRaw({ ...orderKeys.order(o.id), type: 'Order', ...o });
    expect((await listOrdersByBuyer(buyer, undefined, 10)).items).toEqual([]);
    expect(await backfillBuyerIndex()).toBeGreaterThanOrEqual(1);
    expect((await listOrdersByBuyer(buyer, undefined, 10)).items.map((item) => item['id'])).toEqual([old.id]);
    expect(await backfillBuyerIndex()).toBe(0);
    expect(await rawItem(orderKeys.order(anonymous.id))).not.toHaveProperty('gsi2pk');
    expect(await rawItem(orderKeys.order(erased.id))).not.toHaveProperty('gsi2pk');
  });

  it('expires a pending order once; a paid or expired one stays as it is', async () => {
    const orders = dynamoOrders();
    const o = order();
    await orders.create(o);
    const e = event();
    expect(await orders.markExpired({ event: e, orderId: o.id })).toBe('applied');
    expect(await orders.markExpired({ event: e, orderId: o.id })).toBe('duplicate');
    expect(await orders.markPaid({ event: event(), orderId: o.id, paid })).toBe('not-pending');
    expect((await orders.get(o.id))?.status).toBe('expired');
    expect(await readCounter(orderKeys.month(o.creatorId, paid.paidAt), { consistent: true })).toEqual({});
  });

  it('records an event with nothing else to write, once', async () => {
    const e = event();
    expect(await dynamoOrders().recordEvent(e)).toBe('applied');
    expect(await dynamoOrders().recordEvent(e)).toBe('duplicate');
  });

  it('finds a paid order by its PaymentIntent, lists the sales newest first a page at a time, and reverses one once', async () => {
    const orders = dynamoOrders();
    const creatorId = unique('seller');
    const made: Order[] = [];
    for (const [i, at] of ['2026-11-25T09:00:00.000Z', '2026-11-25T11:00:00.000Z', '2026-11-26T08:00:00.000Z'].entries()) {
      const o = order({ creatorId, courseId: i === 2 ? 'course-2' : 'course-1' });
      await orders.create(o);
      await orders.markPaid({ event: event(), orderId: o.id, paid: { ...paid, amount: 1000 * (i + 1), discount: 0, paymentIntentId: `pi_${o.id}`, paidAt: at } });
      made.push(o);
    }
    expect((await orders.getByPaymentIntent(`pi_${made[1]!.id}`))?.id).toBe(made[1]!.id);
    expect(await orders.getByPaymentIntent('pi_unknown')).toBeUndefined();

    const first = await orders.listSales(creatorId, undefined, 2);
    expect(first.items.map((o) => o.id)).toEqual([made[2]!.id, made[1]!.id]);
    const second = await orders.listSales(creatorId, first.nextCursor!, 2);
    expect(second.items.map((o) => o.id)).toEqual([made[0]!.id]);
    await expect(orders.listSales(unique('other'), first.nextCursor!, 2)).rejects.toThrow(/cursor/);

    const e = { id: unique('evt'), type: 'charge.refunded' };
    expect(await orders.markReversed({ event: e, orderId: made[0]!.id, to: 'refunded', at: '2026-11-26T12:00:00.000Z' })).toBe('applied');
    expect(await orders.markReversed({ event: e, orderId: made[0]!.id, to: 'refunded', at: '2026-11-26T12:00:00.000Z' })).toBe('duplicate');
    expect(await orders.markReversed({ orderId: made[0]!.id, to: 'disputed', at: '2026-11-26T12:00:00.000Z' })).toBe('not-paid');
    expect((await orders.get(made[0]!.id))?.status).toBe('refunded');

    // The payments and the refund reach the figures through the table's stream (decision 0040).
    await eventually(() => orders.salesWindow(creatorId, '2026-11-01', '2026-11-30'), (w) => w.refunds === 1 && w.days.reduce((sum, d) => sum + d.sales, 0) === 3);
    await orders.countFunnel(creatorId, '2026-11-26T13:00:00.000Z', 'views');
    const twoDays = await orders.salesWindow(creatorId, '2026-11-25', '2026-11-26');
    expect(twoDays.days).toEqual([
      { date: '2026-11-25', revenue: 3000, sales: 2 },
      // The refund counts on its own day: 3000 sold, 1000 given back.
      { date: '2026-11-26', revenue: 2000, sales: 1 },
    ]);
    expect(twoDays).toMatchObject({ refunds: 1, views: 1, checkouts: 0 });
    // A window that cuts the month reads its day detail: the courses of those days only.
    expect(twoDays.byCourse).toEqual({ 'course-1': { revenue: 2000, sales: 2 }, 'course-2': { revenue: 3000, sales: 1 } });
    const refundDay = await orders.salesWindow(creatorId, '2026-11-26', '2026-11-26');
    expect(refundDay.byCourse).toEqual({ 'course-1': { revenue: -1000, sales: 0 }, 'course-2': { revenue: 3000, sales: 1 } });
    expect(refundDay).toMatchObject({ refunds: 1, views: 1 });
    expect((await orders.salesWindow(creatorId, '2026-11-25', '2026-11-25')).refunds).toBe(0);
    // The whole month from its totals, the same figures.
    const month = await orders.salesWindow(creatorId, '2026-11-01', '2026-11-30');
    expect(month).toMatchObject({ days: twoDays.days, refunds: 1, views: 1, checkouts: 0, byCourse: twoDays.byCourse });
    // Another month is another item: the window reads both.
    await orders.countFunnel(creatorId, '2026-12-01T09:00:00.000Z', 'checkouts');
    const months = await orders.salesWindow(creatorId, '2026-11-26', '2026-12-31');
    expect(months.days.map((d) => d.date)).toEqual(['2026-11-26']);
    expect(months).toMatchObject({ views: 1, checkouts: 1, refunds: 1 });
    expect(months.byCourse).toEqual({ 'course-1': { revenue: -1000, sales: 0 }, 'course-2': { revenue: 3000, sales: 1 } });
    expect(await orders.monthRevenue(creatorId, '2026-11')).toBe(5000);
    expect(await orders.monthRevenue(creatorId, '2026-10')).toBe(0);
  });

  it('records a paid order it cannot fulfil as refunded at once: in the Sales list with its reason, a refund on the day, the notice queued', async () => {
    const orders = dynamoOrders();
    const o = order();
    await orders.create(o);
    const e = event();
    const at = '2026-11-25T10:06:00.000Z';
    const notice = { id: unique('mail'), to: 'ann@example.com', subject: 'refunded', text: 't', html: '<p>t</p>', queuedAt: at, dueAt: at, tries: 1 };
    const refunded = { amount: 2900, discount: 0, buyerEmail: 'ann@example.com', paymentIntentId: unique('pi'), at };
    expect(await orders.markUnfulfilled({ event: e, orderId: o.id, refunded, reason: 'enrolled-already', notice })).toBe('applied');
    expect(await orders.markUnfulfilled({ event: e, orderId: o.id, refunded, reason: 'enrolled-already' })).toBe('duplicate');
    expect(await orders.markUnfulfilled({ event: event(), orderId: o.id, refunded, reason: 'enrolled-already' })).toBe('not-pending');
    expect(await rawItem(orderKeys.order(o.id))).toMatchObject({ status: 'refunded', unfulfilled: 'enrolled-already', buyerEmail: 'ann@example.com', paidAt: at, reversedAt: at });
    expect((await orders.listSales(o.creatorId, undefined, 25)).items.map((s) => [s.id, s.status])).toEqual([[o.id, 'refunded']]);
    expect((await orders.getByPaymentIntent(refunded.paymentIntentId))?.id).toBe(o.id);
    // Through the table's stream (decision 0040).
    const window = await eventually(() => orders.salesWindow(o.creatorId, '2026-11-01', '2026-11-30'), (w) => w.refunds === 1);
    expect(window).toMatchObject({ refunds: 1, byCourse: { 'course-1': { revenue: 0, sales: 0 } } });
    expect(window.days).toEqual([]);
    expect(await rawItem(mailQueueKey(notice))).toMatchObject({ to: 'ann@example.com', subject: 'refunded' });
  });

  it('parks a reversal while its payment is unknown (once per event), and not once the payment holds its intent', async () => {
    const orders = dynamoOrders();
    const intent = unique('pi');
    const refund = { id: unique('evt'), type: 'charge.refunded' };
    expect(await orders.parkReversal({ event: refund, paymentIntentId: intent, accountId: 'acct_1', to: 'refunded' })).toBe('parked');
    expect(await orders.parkReversal({ event: refund, paymentIntentId: intent, accountId: 'acct_1', to: 'refunded' })).toBe('duplicate');
    const dispute = { id: unique('evt'), type: 'charge.dispute.created' };
    expect(await orders.parkReversal({ event: dispute, paymentIntentId: intent, accountId: 'acct_1', to: 'disputed' })).toBe('parked');
    expect(await orders.parkedReversals(intent)).toEqual(
      expect.arrayContaining([
        { eventId: refund.id, accountId: 'acct_1', to: 'refunded' },
        { eventId: dispute.id, accountId: 'acct_1', to: 'disputed' },
      ]),
    );
    expect(await orders.parkedReversals(unique('pi'))).toEqual([]);

    const o = order();
    await orders.create(o);
    const known = unique('pi');
    await orders.markPaid({ event: event(), orderId: o.id, paid: { ...paid, paymentIntentId: known } });
    expect(await orders.parkReversal({ event: { id: unique('evt'), type: 'charge.refunded' }, paymentIntentId: known, accountId: 'acct_1', to: 'refunded' })).toBe('known');
    expect(await orders.parkedReversals(known)).toEqual([]);
  });

  it('writes the PaymentIntent before the order moves, and parks a reversal that finds it then while the order is still pending', async () => {
    const orders = dynamoOrders();
    const o = order();
    await orders.create(o);
    const intent = unique('pi');
    // The payment between its two writes: the intent written (markPaid's first), the order still pending.
    await putRaw({ ...orderKeys.intent(intent), type: 'OrderIntent', orderId: o.id });
    expect((await orders.getByPaymentIntent(intent))?.status).toBe('pending');
    const refund = { id: unique('evt'), type: 'charge.refunded' };
    expect(await orders.parkReversal({ event: refund, paymentIntentId: intent, accountId: 'acct_1', to: 'refunded', pendingOrderId: o.id })).toBe('parked');
    expect(await orders.parkedReversals(intent)).toEqual([{ eventId: refund.id, accountId: 'acct_1', to: 'refunded' }]);
    // The order's move: the reversal parked before it is there for the payment to apply; one after it is not parked.
    expect(await orders.markPaid({ event: event(), orderId: o.id, paid: { ...paid, paymentIntentId: intent } })).toBe('applied');
    expect(await rawItem(orderKeys.intent(intent))).toMatchObject({ orderId: o.id });
    expect(await orders.parkReversal({ event: { id: unique('evt'), type: 'charge.refunded' }, paymentIntentId: intent, accountId: 'acct_1', to: 'refunded', pendingOrderId: o.id })).toBe('known');
    expect(await orders.parkedReversals(intent)).toHaveLength(1);
  });
});
