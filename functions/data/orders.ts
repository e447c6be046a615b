import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { Order, OrderRepository, SalesDay } from '#core/ports.ts';
import { eventPut } from '#data/billing.ts';
import { couponRedemption, dynamoCoupons } from '#data/coupons.ts';
import { decodeCursor, documentClient, encodeCursor, failedAt, queryAll, tableName, transact, writeIf } from '#data/table.ts';

/**
 * course orders and the creators' sales counters (docs/data-model.md "Course sales").
 * Order:       pk ORDER#<orderId>       sk ORDER              gsi1pk CREATOR#<creatorId>#SALES  gsi1sk <paidAt>#<orderId>
 *                                                              (the index keys from the moment it is paid: the Sales list)
 * Intent:      pk PAYINTENT#<pi_...>    sk ORDER              orderId (a refund or dispute names the PaymentIntent)
 * Sales month: pk CREATOR#<creatorId>   sk SALESMONTH#<YYYY-MM>   the month's revenue, sales, discount, refunds, views,
 *              checkouts (the dashboard's Revenue card), and each day's: <DD>_revenue, <DD>_sales, <DD>_refunds,
 *              <DD>_views, <DD>_checkouts, <DD>_rev_<courseId>, <DD>_n_<courseId>, <DD>_cpn_<code>, <DD>_cpd_<code>
 *              (a coupon's redemptions and discount) (ADD, in the transaction of the order's
 *              change; net of refunds). A window of days reads its months: at most 13 items for a year, whatever the
 *              number of orders or of days with sales.
 */
export const orderKeys = {
  order: (orderId: string) => ({ pk: `ORDER#${orderId}`, sk: 'ORDER' }),
  sales: (creatorId: string, paidAt: string, orderId: string) => ({ gsi1pk: `CREATOR#${creatorId}#SALES`, gsi1sk: `${paidAt}#${orderId}` }),
  month: (creatorId: string, at: string) => ({ pk: `CREATOR#${creatorId}`, sk: `SALESMONTH#${at.slice(0, 7)}` }),
  intent: (paymentIntentId: string) => ({ pk: `PAYINTENT#${paymentIntentId}`, sk: 'ORDER' }),
};

const orderItem = z.object({
  id: z.string(),
  courseId: z.string(),
  courseTitle: z.string(),
  creatorId: z.string(),
  accountId: z.string(),
  status: z.enum(['pending', 'paid', 'expired', 'refunded', 'disputed']),
  buyerEmail: z.string().nullable(),
  price: z.number().int(),
  discount: z.number().int(),
  amount: z.number().int(),
  currency: z.literal('gbp'),
  couponCode: z.string().nullable(),
  affiliateId: z.string().nullable(),
  seats: z.number().int().nullable(),
  checkoutSessionId: z.string().nullable(),
  checkoutUrl: z.string().nullable(),
  paymentIntentId: z.string().nullable(),
  learnerId: z.string().nullable(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
});

type CounterMove = { revenue: number; sales: number; discount: number; refunds: number };

/** The month item's attribute of one day's figure (`25_revenue`, `25_rev_<courseId>`). */
const dayField = (at: string, name: string) => `${at.slice(8, 10)}_${name}`;

/** ADDs to the creator's month item: the month's totals and the day's (with the course's). */
const countersOf = (order: Order, at: string, move: CounterMove) => {
  const adds: [string, number][] = [
    ['revenue', move.revenue],
    ['sales', move.sales],
    ['discount', move.discount],
    ['refunds', move.refunds],
    [dayField(at, 'revenue'), move.revenue],
    [dayField(at, 'sales'), move.sales],
    [dayField(at, 'refunds'), move.refunds],
    [dayField(at, `rev_${order.courseId}`), move.revenue],
    [dayField(at, `n_${order.courseId}`), move.sales],
    // Coupon use: a paid order's redemption and the discount it gave (a refund leaves both: the coupon was used).
    ...(order.couponCode && move.sales > 0
      ? ([
          [dayField(at, `cpn_${order.couponCode}`), move.sales],
          [dayField(at, `cpd_${order.couponCode}`), move.discount],
        ] as [string, number][])
      : []),
  ];
  return [monthAdd(order.creatorId, at, adds)];
};

const monthAdd = (creatorId: string, at: string, adds: [string, number][]) => ({
  Update: {
    TableName: tableName(),
    Key: orderKeys.month(creatorId, at),
    UpdateExpression: `ADD ${adds.map((_, i) => `#a${i} :a${i}`).join(', ')} SET #type = :type`,
    ExpressionAttributeNames: { ...Object.fromEntries(adds.map(([name], i) => [`#a${i}`, name])), '#type': 'type' },
    ExpressionAttributeValues: { ...Object.fromEntries(adds.map(([, value], i) => [`:a${i}`, value])), ':type': 'SalesCounters' },
  },
});

const number = (value: unknown): number => (typeof value === 'number' ? value : 0);

/** The days of a month item that have any figure. */
const daysOf = (item: Record<string, unknown>): SalesDay[] => {
  const month = String(item['sk']).slice('SALESMONTH#'.length);
  const days = new Map<string, SalesDay>();
  for (const [name, value] of Object.entries(item)) {
    const match = /^(\d{2})_(.+)$/.exec(name);
    if (!match) continue;
    const [, dd = '', field = ''] = match;
    const date = `${month}-${dd}`;
    const day = days.get(date) ?? { date, revenue: 0, sales: 0, refunds: 0, views: 0, checkouts: 0, byCourse: {}, byCoupon: {} };
    if (field === 'revenue' || field === 'sales' || field === 'refunds' || field === 'views' || field === 'checkouts') day[field] = number(value);
    else if (field.startsWith('rev_')) (day.byCourse[field.slice(4)] ??= { revenue: 0, sales: 0 }).revenue = number(value);
    else if (field.startsWith('n_')) (day.byCourse[field.slice(2)] ??= { revenue: 0, sales: 0 }).sales = number(value);
    else if (field.startsWith('cpn_')) (day.byCoupon[field.slice(4)] ??= { redemptions: 0, discount: 0 }).redemptions = number(value);
    else if (field.startsWith('cpd_')) (day.byCoupon[field.slice(4)] ??= { redemptions: 0, discount: 0 }).discount = number(value);
    days.set(date, day);
  }
  return [...days.values()];
};

const fromPending = (orderId: string, set: string, names: Record<string, string>, values: Record<string, unknown>) => ({
  Update: {
    TableName: tableName(),
    Key: orderKeys.order(orderId),
    UpdateExpression: `SET ${set}`,
    ConditionExpression: '#status = :pending',
    ExpressionAttributeNames: { '#status': 'status', ...names },
    ExpressionAttributeValues: { ':pending': 'pending', ...values },
  },
});

export const dynamoOrders = (): OrderRepository => ({
  async get(orderId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: orderKeys.order(orderId), ConsistentRead: true }));
    return Item ? orderItem.parse(Item) : undefined;
  },

  create: (order: Order) =>
    writeIf(() =>
      documentClient().send(
        new PutCommand({ TableName: tableName(), Item: { ...orderKeys.order(order.id), type: 'Order', ...order }, ConditionExpression: 'attribute_not_exists(pk)' }),
      ),
    ),

  async setCheckout(orderId, session) {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: orderKeys.order(orderId),
        UpdateExpression: 'SET checkoutSessionId = :id, checkoutUrl = :url',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':id': session.id, ':url': session.url },
      }),
    );
  },

  async markPaid({ event, orderId, paid }) {
    const order = await this.get(orderId);
    if (!order) throw new Error(`order ${orderId} is not stored`);
    const cancelled = await transact([
      eventPut(event),
      fromPending(
        orderId,
        '#status = :paid, amount = :amount, discount = :discount, buyerEmail = :email, learnerId = :learner, paymentIntentId = :intent, paidAt = :at, gsi1pk = :gsi1pk, gsi1sk = :gsi1sk',
        {},
        {
          ':paid': 'paid',
          ':amount': paid.amount,
          ':discount': paid.discount,
          ':email': paid.buyerEmail,
          ':learner': paid.learnerId,
          ':intent': paid.paymentIntentId,
          ':at': paid.paidAt,
          ...Object.fromEntries(Object.entries(orderKeys.sales(order.creatorId, paid.paidAt, orderId)).map(([k, v]) => [`:${k}`, v])),
        },
      ),
      ...countersOf(order, paid.paidAt, { revenue: paid.amount, sales: 1, discount: paid.discount, refunds: 0 }),
      ...(paid.paymentIntentId ? [{ Put: { TableName: tableName(), Item: { ...orderKeys.intent(paid.paymentIntentId), type: 'OrderIntent', orderId } } }] : []),
      // A coupon deleted since the checkout is not counted (the order is paid all the same).
      ...(order.couponCode && (await dynamoCoupons().get(order.creatorId, order.couponCode)) ? couponRedemption(order.creatorId, order.couponCode, paid.buyerEmail, paid.paidAt) : []),
    ]);
    if (!cancelled) return 'applied';
    if (failedAt(cancelled, 0)) return 'duplicate';
    return (await this.recordEvent(event)) === 'duplicate' ? 'duplicate' : 'not-pending';
  },

  async markExpired({ event, orderId }) {
    const cancelled = await transact([eventPut(event), fromPending(orderId, '#status = :expired', {}, { ':expired': 'expired' })]);
    if (!cancelled) return 'applied';
    if (failedAt(cancelled, 0)) return 'duplicate';
    return (await this.recordEvent(event)) === 'duplicate' ? 'duplicate' : 'not-pending';
  },

  async getByPaymentIntent(paymentIntentId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: orderKeys.intent(paymentIntentId), ConsistentRead: true }));
    return typeof Item?.['orderId'] === 'string' ? this.get(Item['orderId']) : undefined;
  },

  async listSales(creatorId, cursor, limit) {
    const partition = `CREATOR#${creatorId}#SALES`;
    const { Items = [], LastEvaluatedKey } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': partition },
        ScanIndexForward: false,
        Limit: limit,
        ...(cursor ? { ExclusiveStartKey: decodeCursor(cursor, { gsi1pk: partition }, { name: 'pk', prefix: 'ORDER#' }) } : {}),
      }),
    );
    return { items: Items.map((item) => orderItem.parse(item)), nextCursor: encodeCursor(LastEvaluatedKey) ?? null };
  },

  async markReversed({ event, orderId, to, at }) {
    const order = await this.get(orderId);
    if (!order) throw new Error(`order ${orderId} is not stored`);
    const cancelled = await transact([
      ...(event ? [eventPut(event)] : []),
      {
        Update: {
          TableName: tableName(),
          Key: orderKeys.order(orderId),
          UpdateExpression: 'SET #status = :to, reversedAt = :at',
          ConditionExpression: '#status = :paid',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':to': to, ':at': at, ':paid': 'paid' },
        },
      },
      ...countersOf(order, at, { revenue: -order.amount, sales: 0, discount: 0, refunds: 1 }),
    ]);
    if (!cancelled) return 'applied';
    if (event && failedAt(cancelled, 0)) return 'duplicate';
    if (event) return (await this.recordEvent(event)) === 'duplicate' ? 'duplicate' : 'not-paid';
    return 'not-paid';
  },

  async salesDays(creatorId, from, to) {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': `CREATOR#${creatorId}`, ':from': `SALESMONTH#${from.slice(0, 7)}`, ':to': `SALESMONTH#${to.slice(0, 7)}` },
    });
    return items
      .flatMap(daysOf)
      .filter((day) => day.date >= from && day.date <= to)
      .sort((a, b) => a.date.localeCompare(b.date));
  },

  async countFunnel(creatorId, at, step) {
    await documentClient().send(new UpdateCommand(monthAdd(creatorId, at, [[step, 1], [dayField(at, step), 1]]).Update));
  },

  async monthRevenue(creatorId, month) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: orderKeys.month(creatorId, `${month}-01`) }));
    return number(Item?.['revenue']);
  },

  async recordEvent(event) {
    return (await transact([eventPut(event)])) ? 'duplicate' : 'applied';
  },
});
