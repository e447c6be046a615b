import { type AttributeValue, GetItemCommand, QueryCommand as RawQueryCommand, type QueryCommandInput as RawQueryInput } from '@aws-sdk/client-dynamodb';
import { GetCommand, type NumberValue, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { isPseudonym } from '#contracts/account-deletion.ts';
import type { Order, OrderRepository, SalesDay } from '#core/ports.ts';
import { packedCodec } from '#data/packed-counters.ts';
import { eventPut } from '#data/billing.ts';
import { readCommission, referralWrites, reversalWrites } from '#data/affiliates.ts';
import { couponRedemption, dynamoCoupons } from '#data/coupons.ts';
import { mailQueuePut } from '#data/mail-queue.ts';
import { type ItemKey, readCounter, readRaw, type ShardedCounter, shardedCounter, shardOf, shardUpdate } from '#data/sharded-counters.ts';
import { addUpdate, backfillIndexKeys, documentClient, failedAt, indexPage, queryAll, tableName, transact, writeIf } from '#data/table.ts';

/**
 * course orders and the creators' sales counters (docs/data-model.md "Course sales").
 * Order:       pk ORDER#<orderId>       sk ORDER              gsi1pk CREATOR#<creatorId>#SALES  gsi1sk <paidAt>#<orderId>
 *                                                              (the index keys from the moment it is paid: the Sales list)
 *              paidEventId: the Stripe event that paid it (markPaid), in place of that event's own record: the order's
 *              move from pending is what makes the payment happen once, and a redelivery of that event is known by it
 *              (docs/decisions/0038-flash-sale-writes.md). Every other event, and an order paid before, has its record.
 *              gsi2pk BUYER#<buyerEmail lowercased>  gsi2sk <createdAt>#<orderId>   (sparse: while the order names a
 *              buyer, from its creation or its payment, whose email it follows; issue 37: the buyer's orders, for their
 *              data export and the account deletion, whatever became of the enrolment; orders from before it get the
 *              keys from backfillBuyerIndex; the deletion removes them with the email)
 * Intent:      pk PAYINTENT#<pi_...>    sk ORDER              orderId (a refund or dispute names the PaymentIntent)
 * Parked:      pk PAYINTENT#<pi_...>    sk PARKED#<evt>       a refund or dispute that arrived before its payment
 *                                                              (to, accountId; TTL 30 days), applied when it is paid
 *              (an order paid and refunded at once because it could not be fulfilled keeps `unfulfilled`: the reason)
 * Sales, sharded (data/sharded-counters.ts, docs/decisions/0035-no-hot-items.md): every item below is one of 16 shards,
 * each under its own partition key; an order's writes land on the shard its id picks (a page view on a random one),
 * and a read sums the shards. No item is written by more than about 1 in 16 of a flash sale's orders.
 * Sales month: pk SALES#<creatorId>#<0..15>  sk MONTH#<YYYY-MM>   the month's revenue, sales, discount, refunds, views,
 *              checkouts (plain numbers: the dashboard's Revenue card, and a window's totals for the months it holds
 *              whole); p0..p15 (two days' gross revenue and sales packed in one number: data/packed-counters.ts);
 *              r<DD> (the pence refunded that day, only on days with a refund); c_<courseId> (the course's revenue and
 *              sales that month, packed); k_<code> (the coupon's discount and redemptions that month, packed): at most
 *              16 + 31 day attributes, whatever the number of orders
 * Sales day:   pk SALES#<creatorId>#<0..15>  sk DAY#<YYYY-MM-DD>   c_<courseId>, k_<code> (the same, that day), f (the
 *              day's refunds, checkouts and views, packed): one item per day and shard, read only for the days of a
 *              month the window cuts.
 *              All ADDed from the order's change by the stream aggregator (data/stream-counters.ts, net of refunds;
 *              docs/decisions/0040-stream-aggregator.md): a batch window after the order's write, not in its transaction.
 *              The funnel (views, checkouts: countFunnel) is still ADDed at once. A year's analytics read the 13
 *              months' shards in BatchGetItems and, per shard, the days of the two months the window cuts in a Query
 *              each, whatever the number of orders.
 * Before the shards the same figures were on pk CREATOR#<creatorId> sk SALESMONTH#<YYYY-MM> (read with the month's
 * shards until the migration moves it into shard 0) and SALESDAYS#<YYYY-MM> (attributes <DD>c_..., <DD>k_..., <DD>f;
 * read for a cut month until the migration splits it into shard 0's day items): backfillSalesShards.
 */
export const orderKeys = {
  order: (orderId: string) => ({ pk: `ORDER#${orderId}`, sk: 'ORDER' }),
  sales: (creatorId: string, paidAt: string, orderId: string) => ({ gsi1pk: `CREATOR#${creatorId}#SALES`, gsi1sk: `${paidAt}#${orderId}` }),
  buyer: (email: string, createdAt: string, orderId: string) => ({ gsi2pk: `BUYER#${email.toLowerCase()}`, gsi2sk: `${createdAt}#${orderId}` }),
  /** The month's shards (the month of `at`), read with the month's item from before the shards. */
  month: (creatorId: string, at: string) => shardedCounter(`SALES#${creatorId}`, `MONTH#${at.slice(0, 7)}`, { legacy: orderKeys.legacyMonth(creatorId, at) }),
  /** The day's shards (the day of `at`). */
  day: (creatorId: string, at: string) => shardedCounter(`SALES#${creatorId}`, `DAY#${at.slice(0, 10)}`),
  legacyMonth: (creatorId: string, at: string) => ({ pk: `CREATOR#${creatorId}`, sk: `SALESMONTH#${at.slice(0, 7)}` }),
  legacyDays: (creatorId: string, at: string) => ({ pk: `CREATOR#${creatorId}`, sk: `SALESDAYS#${at.slice(0, 7)}` }),
  intent: (paymentIntentId: string) => ({ pk: `PAYINTENT#${paymentIntentId}`, sk: 'ORDER' }),
  parked: (paymentIntentId: string, eventId: string) => ({ pk: `PAYINTENT#${paymentIntentId}`, sk: `PARKED#${eventId}` }),
};

/** A parked reversal waits this long for its payment (Stripe retries an event for three days). */
const PARKED_TTL_SECONDS = 30 * 24 * 60 * 60;
const parkedItem = z.object({ eventId: z.string(), accountId: z.string(), to: z.enum(['refunded', 'disputed']), parkedAt: z.string() });
const intentPut = (paymentIntentId: string, orderId: string) => ({ Put: { TableName: tableName(), Item: { ...orderKeys.intent(paymentIntentId), type: 'OrderIntent', orderId } } });

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
  paidEventId: z.string().optional(),
  bundleId: z.string().optional(),
  courseIds: z.array(z.string()).optional(),
  courseTitles: z.array(z.string()).optional(),
});

export type CounterMove = { revenue: number; sales: number; discount: number; refunds: number };

/**
 * Two days' sales in one number, what the series needs: [day A's sales, day A's gross revenue, day B's sales] under
 * day B's gross revenue (pence; gross never goes down: refunds are counted apart, so every slot stays non-negative).
 * Day DD is half (DD-1) % 2 of attribute p<(DD-1) / 2>: a month is 16 attributes, whatever its sales.
 */
const twoDays = packedCodec([6, 11, 6]);
/** A day's refunds, checkouts started and page views (the window's totals of a month it cuts): [refunds, checkouts] under views. */
const dayFunnel = packedCodec([6, 7]);

/** A day's attribute of the month item and which half of it the day is. */
const dayPair = (at: string): { name: string; second: boolean } => {
  const day = Number(at.slice(8, 10)) - 1;
  return { name: `p${Math.floor(day / 2)}`, second: day % 2 === 1 };
};
/** The move of one day's gross revenue and sales, in its pair. */
const pairDelta = (at: string, gross: number, sales: number): Record<string, NumberValue> => {
  const { name, second } = dayPair(at);
  return { [name]: second ? twoDays.delta(gross, 0, 0, sales) : twoDays.delta(0, sales, gross, 0) };
};
/** An amount (pence, signed) over a count: a course's revenue and sales, a coupon's discount and redemptions. */
const amountAndCount = packedCodec([7]);

/** ADDs to one shard of a counter: plain numbers and packed ones; `by` (the order's id) picks the shard. */
const addTo = (counter: ShardedCounter, type: string, adds: Record<string, number | NumberValue>, by?: string) => shardUpdate(counter, adds, { type, by });

/** The ADDs of one counter item: its key, its type and what moves (plain numbers and packed ones). */
export interface CounterAdds {
  readonly key: ItemKey;
  readonly type: string;
  readonly adds: Record<string, number | NumberValue>;
}

/**
 * An order's move on the creator's counters: the month item (the month's totals, the day's figures, the course's and
 * the coupon's month figures) and the month's day detail (the course's and the coupon's figures that day, read only
 * for a month the window cuts), each on the shard the order's id picks. Written by the stream aggregator
 * (data/stream-counters.ts), not in the order's own transactions (docs/decisions/0040-stream-aggregator.md).
 */
export const salesAddsOf = (order: Pick<Order, 'creatorId' | 'courseId' | 'couponCode'> & { id?: string }, at: string, move: CounterMove, by: string | undefined = order.id): CounterAdds[] => {
  const dd = at.slice(8, 10);
  // Coupon use: a paid order's redemption and the discount it gave (a refund leaves both: the coupon was used).
  const coupon = order.couponCode && move.sales > 0 ? order.couponCode : undefined;
  const refunded = move.revenue < 0 ? -move.revenue : 0;
  const shard = (counter: ShardedCounter) => counter.key(shardOf(by, counter.keys().length));
  const moved = (adds: Record<string, number | NumberValue | undefined>) =>
    // A packed figure is ADDed even when it moves nothing: its attribute says the course or coupon was in the move.
    Object.fromEntries(Object.entries(adds).filter((entry): entry is [string, number | NumberValue] => entry[1] !== undefined && entry[1] !== 0));
  const month = moved({
    revenue: move.revenue,
    sales: move.sales,
    discount: move.discount,
    refunds: move.refunds,
    ...(move.sales > 0 ? pairDelta(at, move.revenue, move.sales) : {}),
    ...(refunded > 0 ? { [`r${dd}`]: refunded } : {}),
    [`c_${order.courseId}`]: amountAndCount.delta(move.revenue, move.sales),
    ...(coupon ? { [`k_${coupon}`]: amountAndCount.delta(move.discount, move.sales) } : {}),
  });
  const day = moved({
    [`c_${order.courseId}`]: amountAndCount.delta(move.revenue, move.sales),
    ...(coupon ? { [`k_${coupon}`]: amountAndCount.delta(move.discount, move.sales) } : {}),
    ...(move.refunds > 0 ? { f: dayFunnel.delta(0, move.refunds, 0) } : {}),
  });
  return [
    ...(Object.keys(month).length > 0 ? [{ key: shard(orderKeys.month(order.creatorId, at)), type: 'SalesCounters', adds: month }] : []),
    ...(Object.keys(day).length > 0 ? [{ key: shard(orderKeys.day(order.creatorId, at)), type: 'SalesDay', adds: day }] : []),
  ];
};

/** The same move as transaction items (a bench's seeding writes them directly). */
export const countersOf = (order: Pick<Order, 'creatorId' | 'courseId' | 'couponCode'> & { id?: string }, at: string, move: CounterMove) =>
  salesAddsOf(order, at, move).map(({ key, type, adds }) => addUpdate(key, adds, { type }));

type Figures = Record<string, { amount: number; count: number }>;
const addFigure = (into: Figures, key: string, stored: string | undefined) => {
  const [amount = 0, count = 0] = amountAndCount.read(stored);
  const sum = into[key] ?? { amount: 0, count: 0 };
  into[key] = { amount: sum.amount + amount, count: sum.count + count };
};

/** The months from `first` to `last` (YYYY-MM), both included. */
const monthsBetween = (first: string, last: string): string[] => {
  const months: string[] = [];
  for (let at = new Date(`${first}-01T00:00:00.000Z`); at.toISOString().slice(0, 7) <= last; at.setUTCMonth(at.getUTCMonth() + 1)) months.push(at.toISOString().slice(0, 7));
  return months;
};

const lastDayOf = (month: string): string => String(new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate()).padStart(2, '0');

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

/**
 * The buyer index's part of an update that sets the order's `buyerEmail`: its keys follow the email (the address Stripe
 * was given can differ from the one at checkout), or go when there is none.
 */
const buyerIndex = (order: Pick<Order, 'id' | 'createdAt'>, email: string | null): { set: string; remove: string; values: Record<string, string> } => {
  // A deleted buyer's pseudonym stays out of the index, as the deletion left the order: nobody is to find it by it.
  if (email === null || isPseudonym(email)) return { set: '', remove: ' REMOVE gsi2pk, gsi2sk', values: {} };
  const { gsi2pk, gsi2sk } = orderKeys.buyer(email, order.createdAt, order.id);
  return { set: ', gsi2pk = :gsi2pk, gsi2sk = :gsi2sk', remove: '', values: { ':gsi2pk': gsi2pk, ':gsi2sk': gsi2sk } };
};

type RawItem = Record<string, AttributeValue>;

/** Counter items are read as DynamoDB sent them: their packed numbers as strings (a JS number would lose digits). */
const rawQuery = async (input: Omit<RawQueryInput, 'TableName' | 'ExclusiveStartKey'>): Promise<RawItem[]> => {
  const items: RawItem[] = [];
  let start: RawItem | undefined;
  do {
    const page = await documentClient().send(new RawQueryCommand({ ...input, TableName: tableName(), ...(start ? { ExclusiveStartKey: start } : {}) }));
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
};

const rawGet = async (key: Record<string, string>): Promise<RawItem | undefined> =>
  (await documentClient().send(new GetItemCommand({ TableName: tableName(), Key: Object.fromEntries(Object.entries(key).map(([k, v]) => [k, { S: v }])) }))).Item;

/**
 * One try of a paid order's reversal: the event, the order paid -> refunded or disputed, its counters, and its
 * commission's move as read ('commission-moved' when that move's condition no longer held).
 */
const reverseOnce = async (input: {
  event: { id: string; type: string } | undefined;
  order: Order;
  to: 'refunded' | 'disputed';
  at: string;
  commissionWrites: ReturnType<typeof reversalWrites>;
}): Promise<'applied' | 'duplicate' | 'not-paid' | 'commission-moved'> => {
  const { event, order, to, at, commissionWrites } = input;
  const orderId = order.id;
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
    ...commissionWrites,
  ]);
  if (!cancelled) return 'applied';
  if (event && failedAt(cancelled, 0)) return 'duplicate';
  const first = cancelled.codes.length - commissionWrites.length;
  if (commissionWrites.length > 0 && failedAt(cancelled, first) && !failedAt(cancelled, event ? 1 : 0)) return 'commission-moved';
  if (event) return (await recordEvent(event)) === 'duplicate' ? 'duplicate' : 'not-paid';
  return 'not-paid';
};

const recordEvent = async (event: { id: string; type: string }): Promise<'applied' | 'duplicate'> => ((await transact([eventPut(event)])) ? 'duplicate' : 'applied');

export const dynamoOrders = (): OrderRepository => ({
  async get(orderId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: orderKeys.order(orderId), ConsistentRead: true }));
    return Item ? orderItem.parse(Item) : undefined;
  },

  create: (order: Order) =>
    writeIf(() =>
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...orderKeys.order(order.id), ...(order.buyerEmail ? orderKeys.buyer(order.buyerEmail, order.createdAt, order.id) : {}), type: 'Order', ...order },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
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

  async markPaid({ event, orderId, paid, referral, receipt, account }) {
    const order = await this.get(orderId);
    if (!order) throw new Error(`order ${orderId} is not stored`);
    // The order first: its move from pending is the condition that makes the payment happen once. The event is not
    // recorded apart (one item less in every payment's transaction): its id goes on the order.
    const buyer = buyerIndex(order, paid.buyerEmail);
    const writes = [
      fromPending(
        orderId,
        `#status = :paid, amount = :amount, discount = :discount, buyerEmail = :email, learnerId = :learner, paymentIntentId = :intent, paidAt = :at, affiliateId = :affiliate, paidEventId = :event, gsi1pk = :gsi1pk, gsi1sk = :gsi1sk${buyer.set}${buyer.remove}`,
        {},
        {
          ...buyer.values,
          ':paid': 'paid',
          ':event': event.id,
          ':affiliate': referral?.affiliateId ?? null,
          ':amount': paid.amount,
          ':discount': paid.discount,
          ':email': paid.buyerEmail,
          ':learner': paid.learnerId,
          ':intent': paid.paymentIntentId,
          ':at': paid.paidAt,
          ...Object.fromEntries(Object.entries(orderKeys.sales(order.creatorId, paid.paidAt, orderId)).map(([k, v]) => [`:${k}`, v])),
        },
      ),
    ];
    // The PaymentIntent first, on its own (1 write unit, not 2 in the transaction: decision 0054): a refund or dispute
    // that finds it while the order is still pending is parked on that condition (parkReversal), and applied by this
    // payment after its move (applyParked); a delivery that dies after it writes it again (the same item).
    if (paid.paymentIntentId) await documentClient().send(new PutCommand(intentPut(paid.paymentIntentId, orderId).Put));
    // A coupon deleted since the checkout is not counted (the order is paid all the same). Its buyer's use is
    // conditional: another order's use of it cancels the payment ('coupon-used').
    const stored = order.couponCode ? await dynamoCoupons().get(order.creatorId, order.couponCode) : undefined;
    const coupon =
      order.couponCode && stored
        ? couponRedemption(order.creatorId, order.couponCode, { email: paid.buyerEmail, orderId, courseId: order.courseId }, paid.paidAt, stored.maxRedemptions !== null)
        : [];
    const useAt = coupon.length > 0 ? writes.length + coupon.length - 1 : -1;
    const together = [
      ...writes,
      ...coupon,
      ...(referral
        ? referralWrites({ creatorId: order.creatorId, orderId, courseTitle: order.courseTitle, orderAmount: paid.amount, at: paid.paidAt, ...referral })
        : []),
      ...(receipt ? [mailQueuePut(receipt)] : []),
      ...(account ? [mailQueuePut(account)] : []),
    ];
    // The order's move alone (no coupon, referral or queued work): a conditional Update, 2 write units (the item and its
    // index) instead of 4 in a transaction.
    const cancelled = together.length === 1 ? ((await writeIf(() => documentClient().send(new UpdateCommand(writes[0]!.Update)))) ? undefined : { codes: ['ConditionalCheckFailed'], items: [undefined] }) : await transact(together);
    if (!cancelled) return 'applied';
    if (useAt >= 0 && failedAt(cancelled, useAt) && !failedAt(cancelled, 0)) return 'coupon-used';
    // Paid by this very event already (a redelivery): nothing to record.
    if (failedAt(cancelled, 0) && (await this.get(orderId))?.paidEventId === event.id) return 'duplicate';
    return (await this.recordEvent(event)) === 'duplicate' ? 'duplicate' : 'not-pending';
  },

  setLearner: (orderId, learnerId) =>
    writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: orderKeys.order(orderId),
          UpdateExpression: 'SET learnerId = :learner',
          ConditionExpression: '#status = :paid',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':learner': learnerId, ':paid': 'paid' },
        }),
      ),
    ),

  async markUnfulfilled({ event, orderId, refunded, reason, notice }) {
    const order = await this.get(orderId);
    if (!order) throw new Error(`order ${orderId} is not stored`);
    const buyer = buyerIndex(order, refunded.buyerEmail);
    const cancelled = await transact([
      eventPut(event),
      fromPending(
        orderId,
        `#status = :refunded, amount = :amount, discount = :discount, buyerEmail = :email, paymentIntentId = :intent, paidAt = :at, reversedAt = :at, unfulfilled = :reason, affiliateId = :none, gsi1pk = :gsi1pk, gsi1sk = :gsi1sk${buyer.set}${buyer.remove}`,
        {},
        {
          ...buyer.values,
          ':refunded': 'refunded',
          ':amount': refunded.amount,
          ':discount': refunded.discount,
          ':email': refunded.buyerEmail,
          ':intent': refunded.paymentIntentId,
          ':at': refunded.at,
          ':reason': reason,
          ':none': null,
          ...Object.fromEntries(Object.entries(orderKeys.sales(order.creatorId, refunded.at, orderId)).map(([k, v]) => [`:${k}`, v])),
        },
      ),
      ...(refunded.paymentIntentId ? [intentPut(refunded.paymentIntentId, orderId)] : []),
      ...(notice ? [mailQueuePut(notice)] : []),
    ]);
    if (!cancelled) return 'applied';
    if (failedAt(cancelled, 0)) return 'duplicate';
    return (await this.recordEvent(event)) === 'duplicate' ? 'duplicate' : 'not-pending';
  },

  async parkReversal({ event, paymentIntentId, accountId, to, pendingOrderId }) {
    const nowMs = Date.now();
    const cancelled = await transact([
      eventPut(event, nowMs),
      // Only while the payment is unknown: a payment written meanwhile holds its intent, and the reversal applies to it.
      // Or, its intent written just before its order's move (markPaid), while that order is still pending: the payment
      // applies what is parked after its move.
      pendingOrderId
        ? {
            ConditionCheck: {
              TableName: tableName(),
              Key: orderKeys.order(pendingOrderId),
              ConditionExpression: '#status = :pending',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':pending': 'pending' },
            },
          }
        : { ConditionCheck: { TableName: tableName(), Key: orderKeys.intent(paymentIntentId), ConditionExpression: 'attribute_not_exists(pk)' } },
      {
        Put: {
          TableName: tableName(),
          Item: { ...orderKeys.parked(paymentIntentId, event.id), type: 'ParkedReversal', eventId: event.id, eventType: event.type, accountId, to, parkedAt: new Date(nowMs).toISOString(), expiresAt: Math.floor(nowMs / 1000) + PARKED_TTL_SECONDS },
        },
      },
    ]);
    if (!cancelled) return 'parked';
    if (failedAt(cancelled, 0)) return 'duplicate';
    return 'known';
  },

  async parkedReversals(paymentIntentId) {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :parked)',
      ExpressionAttributeValues: { ':pk': orderKeys.intent(paymentIntentId).pk, ':parked': 'PARKED#' },
      ConsistentRead: true,
    });
    return items
      .map((item) => parkedItem.parse(item))
      .sort((a, b) => a.parkedAt.localeCompare(b.parkedAt))
      .map(({ eventId, accountId, to }) => ({ eventId, accountId, to }));
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
    const page = await indexPage({
      index: 'gsi1',
      partition: `CREATOR#${creatorId}#SALES`,
      cursor,
      limit,
      cursorKey: { sortPrefix: { name: 'pk', prefix: 'ORDER#' } },
    });
    return { items: page.items.map((item) => orderItem.parse(item)), nextCursor: page.nextCursor };
  },

  async markReversed({ event, orderId, to, at }) {
    const order = await this.get(orderId);
    if (!order) throw new Error(`order ${orderId} is not stored`);
    for (let attempt = 1; ; attempt++) {
      // The commission as it stands now: a daily job or a payout moving it meanwhile cancels the transaction on its
      // condition, and it is read again.
      const commission = order.affiliateId ? await readCommission(order.affiliateId, orderId) : undefined;
      const commissionWrites = commission ? reversalWrites(commission, at) : [];
      const outcome = await reverseOnce({ event, order, to, at, commissionWrites });
      if (outcome !== 'commission-moved') return outcome;
      if (attempt >= 5) throw new Error(`the commission of order ${orderId} kept moving during its reversal`);
    }
  },

  async salesWindow(creatorId, from, to) {
    const [first, last] = [from.slice(0, 7), to.slice(0, 7)];
    // A month the window cuts gives its courses' and coupons' figures from its day items; the others from their totals.
    const cut = [...new Set([first, last])].filter((month) => from > `${month}-01` || to < `${month}-${lastDayOf(month)}`);
    const monthKeys = monthsBetween(first, last).flatMap((month) => orderKeys.month(creatorId, `${month}-01`).readKeys());
    const dayRanges = cut.map((month) => ({ month, from: from > `${month}-01` ? from : `${month}-01`, to: to < `${month}-${lastDayOf(month)}` ? to : `${month}-${lastDayOf(month)}` }));
    const [months, dayItems, legacyDetails] = await Promise.all([
      readRaw(monthKeys),
      Promise.all(
        dayRanges.flatMap((range) =>
          orderKeys.day(creatorId, range.from).keys().map(({ pk }) =>
            rawQuery({
              KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
              ExpressionAttributeValues: { ':pk': { S: pk }, ':from': { S: `DAY#${range.from}` }, ':to': { S: `DAY#${range.to}` } },
            }),
          ),
        ),
      ),
      Promise.all(cut.map((month) => rawGet(orderKeys.legacyDays(creatorId, `${month}-01`)).then((item) => [month, item] as const))),
    ]);
    const days = new Map<string, { gross: number; refunded: number; sales: number }>();
    const dayOf = (date: string) => days.get(date) ?? (days.set(date, { gross: 0, refunded: 0, sales: 0 }), days.get(date)!);
    const inWindow = (date: string) => date >= from && date <= to;
    const totals = { refunds: 0, views: 0, checkouts: 0 };
    const courses: Figures = {};
    const coupons: Figures = {};
    for (const item of months) {
      const month = (item['sk']?.S ?? '').replace(/^(MONTH|SALESMONTH)#/, '');
      const whole = !cut.includes(month);
      for (const [name, value] of Object.entries(item)) {
        const pair = /^p(\d+)$/.exec(name)?.[1];
        if (pair !== undefined) {
          const [grossB = 0, salesA = 0, grossA = 0, salesB = 0] = twoDays.read(value.N);
          for (const [n, gross, sales] of [[2 * Number(pair) + 1, grossA, salesA], [2 * Number(pair) + 2, grossB, salesB]] as const) {
            const date = `${month}-${String(n).padStart(2, '0')}`;
            if ((gross !== 0 || sales !== 0) && inWindow(date)) {
              const day = dayOf(date);
              day.gross += gross;
              day.sales += sales;
            }
          }
          continue;
        }
        const refundDay = /^r(\d{2})$/.exec(name)?.[1];
        if (refundDay && inWindow(`${month}-${refundDay}`)) dayOf(`${month}-${refundDay}`).refunded += Number(value.N);
        else if (whole && (name === 'refunds' || name === 'views' || name === 'checkouts')) totals[name] += Number(value.N);
        else if (whole && name.startsWith('c_')) addFigure(courses, name.slice(2), value.N);
        else if (whole && name.startsWith('k_')) addFigure(coupons, name.slice(2), value.N);
      }
    }
    const addDetail = (date: string, kind: string, key: string, stored: string | undefined) => {
      if (!inWindow(date)) return;
      if (kind === 'f') {
        const [views = 0, refunds = 0, checkouts = 0] = dayFunnel.read(stored);
        totals.refunds += refunds;
        totals.views += views;
        totals.checkouts += checkouts;
      } else addFigure(kind === 'c_' ? courses : coupons, key, stored);
    };
    for (const item of dayItems.flat()) {
      const date = (item['sk']?.S ?? '').slice('DAY#'.length);
      for (const [name, value] of Object.entries(item)) {
        const [, kind, key = ''] = /^(c_|k_|f$)(.*)$/.exec(name) ?? [];
        if (kind) addDetail(date, kind, key, value.N);
      }
    }
    for (const [month, item] of legacyDetails) {
      for (const [name, value] of Object.entries(item ?? {})) {
        const [, day = '', kind, key = ''] = /^(\d{2})(c_|k_|f)(.*)$/.exec(name) ?? [];
        if (kind) addDetail(`${month}-${day}`, kind, key, value.N);
      }
    }
    return {
      days: [...days.entries()]
        .map(([date, day]): SalesDay => ({ date, revenue: day.gross - day.refunded, sales: day.sales }))
        .sort((a, b) => a.date.localeCompare(b.date)),
      ...totals,
      byCourse: Object.fromEntries(Object.entries(courses).map(([id, f]) => [id, { revenue: f.amount, sales: f.count }])),
      byCoupon: Object.fromEntries(Object.entries(coupons).map(([code, f]) => [code, { redemptions: f.count, discount: f.amount }])),
    };
  },

  async countFunnel(creatorId, at, step) {
    const moved = step === 'views' ? dayFunnel.delta(1, 0, 0) : dayFunnel.delta(0, 0, 1);
    await transact([...addTo(orderKeys.month(creatorId, at), 'SalesCounters', { [step]: 1 }), ...addTo(orderKeys.day(creatorId, at), 'SalesDay', { f: moved })]);
  },

  async monthRevenue(creatorId, month) {
    return (await readCounter(orderKeys.month(creatorId, `${month}-01`), { attributes: ['revenue'] }))['revenue'] ?? 0;
  },

  recordEvent,
});

/**
 * One page of the orders that name `email` as their buyer (gsi2 `BUYER#<email>`, oldest first), with the cursor to
 * the next: the account deletion's walk (issue 37). The orders' own attributes, as stored.
 */
export const listOrdersByBuyer = async (email: string, cursor: string | undefined, limit: number): Promise<{ items: Record<string, unknown>[]; nextCursor: string | null }> =>
  indexPage({
    index: 'gsi2',
    partition: orderKeys.buyer(email, '', '').gsi2pk,
    cursor,
    limit,
    cursorKey: { sortPrefix: { name: 'pk', prefix: 'ORDER#' } },
    oldestFirst: true,
  });

/**
 * Migration (issue 37, bin/backfill.ts): orders from before the buyer index that name a buyer get its keys. Idempotent:
 * a second run finds none without them (an order with no buyer stays out of the index, as it would be written now).
 */
export const backfillBuyerIndex = (): Promise<number> =>
  backfillIndexKeys({
    type: 'Order',
    index: 'gsi2',
    projection: 'id, buyerEmail, createdAt',
    keysOf: (item) => {
      const parsed = z.object({ id: z.string(), buyerEmail: z.string().min(1), createdAt: z.string() }).safeParse(item);
      // A deleted account's order (its buyer already the pseudonym) stays out: nobody is to find it by that address.
      if (!parsed.success || isPseudonym(parsed.data.buyerEmail)) return undefined;
      const { gsi2pk, gsi2sk } = orderKeys.buyer(parsed.data.buyerEmail, parsed.data.createdAt, parsed.data.id);
      return { key: orderKeys.order(parsed.data.id), pk: gsi2pk, sk: gsi2sk };
    },
  });
