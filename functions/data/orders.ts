import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { Order, OrderRepository } from '#core/ports.ts';
import { eventPut } from '#data/billing.ts';
import { documentClient, failedAt, tableName, transact, writeIf } from '#data/table.ts';

/**
 * course orders and the creators' sales counters (docs/data-model.md "Course sales").
 * Order:       pk ORDER#<orderId>       sk ORDER              gsi1pk CREATOR#<creatorId>#SALES  gsi1sk <paidAt>#<orderId>
 *                                                              (the index keys from the moment it is paid: the Sales list)
 * Sales day:   pk CREATOR#<creatorId>   sk SALESDAY#<YYYY-MM-DD>  revenue, sales, discount (ADD, with the order's change)
 * Sales month: pk CREATOR#<creatorId>   sk SALESMONTH#<YYYY-MM>   the same, for the dashboard's Revenue card
 */
export const orderKeys = {
  order: (orderId: string) => ({ pk: `ORDER#${orderId}`, sk: 'ORDER' }),
  sales: (creatorId: string, paidAt: string, orderId: string) => ({ gsi1pk: `CREATOR#${creatorId}#SALES`, gsi1sk: `${paidAt}#${orderId}` }),
  day: (creatorId: string, at: string) => ({ pk: `CREATOR#${creatorId}`, sk: `SALESDAY#${at.slice(0, 10)}` }),
  month: (creatorId: string, at: string) => ({ pk: `CREATOR#${creatorId}`, sk: `SALESMONTH#${at.slice(0, 7)}` }),
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

/** ADDs to one sales counter item (a day's or a month's). */
const salesCounter = (key: { pk: string; sk: string }, add: { revenue: number; sales: number; discount: number }) => ({
  Update: {
    TableName: tableName(),
    Key: key,
    UpdateExpression: 'ADD revenue :revenue, sales :sales, discount :discount SET #type = :type',
    ExpressionAttributeNames: { '#type': 'type' },
    ExpressionAttributeValues: { ':revenue': add.revenue, ':sales': add.sales, ':discount': add.discount, ':type': 'SalesCounters' },
  },
});

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
    const counts = { revenue: paid.amount, sales: 1, discount: paid.discount };
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
      salesCounter(orderKeys.day(order.creatorId, paid.paidAt), counts),
      salesCounter(orderKeys.month(order.creatorId, paid.paidAt), counts),
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

  async recordEvent(event) {
    return (await transact([eventPut(event)])) ? 'duplicate' : 'applied';
  },
});
