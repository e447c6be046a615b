import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import type { CouponRepository, StoredCoupon } from '#core/sales/ports.ts';
import { readCounters, shardedCounter, shardOf } from '#data/sharded-counters.ts';
import { addUpdate, batchWrite, documentClient, backfillIndexKeys, indexPage, queryAll, tableName, writeIf } from '#data/table.ts';

/**
 * creators' coupons (docs/data-model.md "Course sales").
 * Coupon:      pk CREATOR#<creatorId>  sk COUPON#<CODE>                 kind, value, courseIds, limits, redeemed (ADD by
 *                                                                         the paid order's transaction), Stripe twins
 *              gsi1pk CREATOR#<creatorId>#COUPONS  gsi1sk <createdAt>#<CODE>   the creator's list, newest first, a page
 *                                                                         at a time (issue 28; coupons made before it get
 *                                                                         the keys from backfillCouponIndex)
 * Coupon use:  pk CREATOR#<creatorId>  sk COUPONUSE#<CODE>#<email>       one per buyer email that paid with it (orderId,
 *                                                                         courseId: the paid order that used it)
 * Redeemed:    pk COUPONREDEEMED#<creatorId>#<CODE>#<0..15>  sk REDEEMED  redeemed: the redemptions of a coupon WITHOUT a
 *              limit, sharded (data/sharded-counters.ts; the order's id picks the shard), so a sale's coupon is no hot
 *              item. A coupon with a limit (maxRedemptions) counts on its own item, as a limit must be taken on the
 *              counter itself. A coupon's `redeemed` as read is its item's plus its shards'.
 */
export const couponKeys = {
  coupon: (creatorId: string, code: string) => ({ pk: `CREATOR#${creatorId}`, sk: `COUPON#${code}` }),
  redeemed: (creatorId: string, code: string) => shardedCounter(`COUPONREDEEMED#${creatorId}#${code}`, 'REDEEMED'),
  use: (creatorId: string, code: string, email: string) => ({ pk: `CREATOR#${creatorId}`, sk: `COUPONUSE#${code}#${email.toLowerCase()}` }),
  listed: (c: Pick<StoredCoupon, 'creatorId' | 'createdAt' | 'code'>) => ({ gsi1pk: `CREATOR#${c.creatorId}#COUPONS`, gsi1sk: `${c.createdAt}#${c.code}` }),
};

const couponItem = z.object({
  creatorId: z.string(),
  code: z.string(),
  kind: z.enum(['percent', 'amount']),
  value: z.number().int(),
  courseIds: z.array(z.string()).nullable(),
  maxRedemptions: z.number().int().nullable(),
  expiresAt: z.string().nullable(),
  redeemed: z.number().int(),
  active: z.boolean(),
  affiliateId: z.string().nullable().default(null),
  createdAt: z.string(),
  accountId: z.string(),
  stripeCouponId: z.string(),
  promotionCodeId: z.string(),
});
const toCoupon = (item: unknown): StoredCoupon => couponItem.parse(item);

/** The coupons with their redemptions: the item's own plus its shards' (one set of BatchGetItems for all). */
const withRedeemed = async (coupons: StoredCoupon[]): Promise<StoredCoupon[]> => {
  if (coupons.length === 0) return coupons;
  const sums = await readCounters(coupons.map((c) => couponKeys.redeemed(c.creatorId, c.code)), { attributes: ['redeemed'] });
  return coupons.map((c, i) => ({ ...c, redeemed: c.redeemed + (sums[i]?.['redeemed'] ?? 0) }));
};

/**
 * The paid order's coupon, counted in its transaction: `redeemed` +1 and the buyer's use, written only when that email
 * has no use of the coupon yet, or its use is this order's (a retried transaction): one use per buyer whatever the
 * concurrency. The use is the last of the two writes (its index tells the cancellation apart).
 */
export const couponRedemption = (creatorId: string, code: string, use: { email: string; orderId: string; courseId: string }, at: string, limited = true) => [
  limited
    ? {
        Update: {
          TableName: tableName(),
          Key: couponKeys.coupon(creatorId, code),
          UpdateExpression: 'ADD redeemed :one',
          ExpressionAttributeValues: { ':one': 1 },
        },
      }
    : addUpdate(couponKeys.redeemed(creatorId, code).key(shardOf(use.orderId)), { redeemed: 1 }, { type: 'CouponRedeemed' }),
  {
    Put: {
      TableName: tableName(),
      Item: { ...couponKeys.use(creatorId, code, use.email), type: 'CouponUse', email: use.email.toLowerCase(), orderId: use.orderId, courseId: use.courseId, at },
      ConditionExpression: 'attribute_not_exists(pk) OR orderId = :order',
      ExpressionAttributeValues: { ':order': use.orderId },
    },
  },
];

export const dynamoCoupons = (): CouponRepository => ({
  async list(creatorId) {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :coupon)',
      ExpressionAttributeValues: { ':pk': `CREATOR#${creatorId}`, ':coupon': 'COUPON#' },
    });
    return withRedeemed(items.map(toCoupon).sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.code.localeCompare(b.code)));
  },

  async page(creatorId, { cursor, limit }) {
    const page = await indexPage({
      index: 'gsi1',
      partition: couponKeys.listed({ creatorId, createdAt: '', code: '' }).gsi1pk,
      cursor,
      limit,
      cursorKey: { fixed: { pk: `CREATOR#${creatorId}` }, sortPrefix: { name: 'sk', prefix: 'COUPON#' } },
    });
    return { items: await withRedeemed(page.items.map(toCoupon)), nextCursor: page.nextCursor };
  },

  async get(creatorId, code) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: couponKeys.coupon(creatorId, code), ConsistentRead: true }));
    return Item ? (await withRedeemed([toCoupon(Item)]))[0] : undefined;
  },

  create: (coupon) =>
    writeIf(() =>
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...couponKeys.coupon(coupon.creatorId, coupon.code), type: 'Coupon', ...coupon, ...couponKeys.listed(coupon) },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    ),

  async update(creatorId, code, changes) {
    const fields = Object.entries(changes).filter(([, value]) => value !== undefined);
    if (fields.length === 0) return this.get(creatorId, code);
    try {
      const { Attributes } = await documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: couponKeys.coupon(creatorId, code),
          UpdateExpression: `SET ${fields.map(([name]) => `#${name} = :${name}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: Object.fromEntries(fields.map(([name]) => [`#${name}`, name])),
          ExpressionAttributeValues: Object.fromEntries(fields.map(([name, value]) => [`:${name}`, value])),
          ReturnValues: 'ALL_NEW',
        }),
      );
      return (await withRedeemed([toCoupon(Attributes)]))[0];
    } catch (error) {
      if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return undefined;
      throw error;
    }
  },

  async delete(creatorId, code) {
    const deleted = await writeIf(() =>
      documentClient().send(new DeleteCommand({ TableName: tableName(), Key: couponKeys.coupon(creatorId, code), ConditionExpression: 'attribute_exists(pk)' })),
    );
    // Its redemption shards go with it: a coupon made again with the same code starts from none.
    if (deleted) await batchWrite(couponKeys.redeemed(creatorId, code).keys().map((key) => ({ DeleteRequest: { Key: key } })));
    return deleted;
  },

  async usedBy(creatorId, code, email) {
    return (await this.useOf(creatorId, code, email)) !== undefined;
  },

  async useOf(creatorId, code, email) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: couponKeys.use(creatorId, code, email), ConsistentRead: true }));
    if (!Item) return undefined;
    return { orderId: typeof Item['orderId'] === 'string' ? Item['orderId'] : null, courseId: typeof Item['courseId'] === 'string' ? Item['courseId'] : null };
  },
});

/**
 * Migration (issue 28, bin/backfill.ts): coupons made before the paged list get its index keys (gsi1, newest first).
 * Idempotent: a second run finds none without them. Returns how many it indexed.
 */
export const backfillCouponIndex = (): Promise<number> =>
  backfillIndexKeys({
    type: 'Coupon',
    index: 'gsi1',
    projection: 'creatorId, code, createdAt',
    keysOf: (item) => {
      const parsed = z.object({ creatorId: z.string(), code: z.string(), createdAt: z.string() }).safeParse(item);
      if (!parsed.success) return undefined; // a partial item (no date to list it by): left alone
      const { gsi1pk, gsi1sk } = couponKeys.listed(parsed.data);
      return { key: couponKeys.coupon(parsed.data.creatorId, parsed.data.code), pk: gsi1pk, sk: gsi1sk };
    },
  });
