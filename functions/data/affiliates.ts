import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { PAYOUT_BATCH } from '#core/affiliates/affiliates.ts';
import type { AffiliateRepository, NewCommission, StoredAffiliate, StoredCommission } from '#core/ports.ts';
import { countersUpdate } from '#data/counters.ts';
import { readCounters, shardedCounter, shardOf } from '#data/sharded-counters.ts';
import { addUpdate, batchGet, batchWrite, decodeCursor, documentClient, encodeCursor, failedAt, backfillIndexKeys, forEachOfType, indexPage, queryAll, tableName, transact, writeIf } from '#data/table.ts';
import { mailQueuePut } from '#data/mail-queue.ts';

/**
 * creators' affiliates and their commissions (access pattern 23; docs/data-model.md "Affiliates").
 * Affiliate:   pk CREATOR#<creatorId>       sk AFFILIATE#<affiliateId>  name, email, code, terms (figures from before the
 *                                                                        shards, until the migration moves them)
 *              gsi1pk CREATOR#<creatorId>#AFFILIATES  gsi1sk <createdAt>#<affiliateId>: the creator's list, newest
 *              first, a page at a time (issue 28; affiliates made before it get the keys from backfillAffiliateIndex)
 * Figures:     pk AFFFIGURES#<affiliateId>#<0..15>  sk FIGURES           clicks, sales, pending, approved, paid, clawedBack
 *                                                                        (ADDed to one shard in the transactions that move
 *                                                                        them; read summed: data/sharded-counters.ts)
 * Email claim: pk CREATOR#<creatorId>       sk AFFEMAIL#<email>         one affiliate per email per creator; affiliateId,
 *              gsi2pk AFFILIATEEMAIL#<email>  gsi2sk <creatorId>             creatorId: every creator's affiliate of an email
 *              (the account deletion's way to them; claims written before it are not found)
 * Code:        pk AFFCODE#<code>            sk AFFCODE                  affiliateId, creatorId, cookieDays (codes are unique)
 * Click:       pk AFFCLICK#<clickId>        sk CLICK                    code, affiliateId, creatorId, at, windowEndsAt;
 *                                                                        expiresAt (the table's TTL, epoch seconds) the same
 * Commission:  pk AFFILIATE#<affiliateId>   sk COMMISSION#<orderId>     amount, status, approveAt, ...; its gsi1 keys name
 *              what waits on it: pending  -> gsi1pk COMMISSIONS#DUE            gsi1sk <approveAt>#<affiliateId>#<orderId>
 *                                approved -> gsi1pk AFFILIATE#<id>#APPROVED    gsi1sk <approveAt>#<orderId>
 *                                paid, void -> none (sparse: the job and the payout read only what they act on)
 *              and, whatever its status, gsi2pk AFFILIATE#<id>#COMMISSIONS  gsi2sk <createdAt>#<orderId>: the paged list,
 *              newest first (issue 28; items written before it get the keys from backfillCommissionIndex)
 * Payout:      pk AFFILIATE#<affiliateId>   sk PAYOUT#<payoutId>        amount, lines (how many), createdAt, complete
 * Payout line: pk PAYOUT#<payoutId>         sk LINE#<orderId>           affiliateId, orderId, amount, paidAt: one per
 *              commission paid, written in the transaction that pays it (issue 28: a payout of any size, read a page at
 *              a time; payouts of the earlier shape, their order ids in one `orderIds` list, are moved to lines by
 *              backfillPayoutLines)
 * Platform figures on the counters item (counters.ts): affiliates_total, affiliate_clicks, affiliate_sales,
 * commissions_total (earned, net of voided), commissions_pending, commissions_approved, commissions_paid,
 * commissions_clawedback.
 */
export const affiliateKeys = {
  affiliate: (creatorId: string, affiliateId: string) => ({ pk: `CREATOR#${creatorId}`, sk: `AFFILIATE#${affiliateId}` }),
  email: (creatorId: string, email: string) => ({ pk: `CREATOR#${creatorId}`, sk: `AFFEMAIL#${email.toLowerCase()}` }),
  /** The email claims of one address across creators (gsi2 of the claim items). */
  byEmail: (email: string, creatorId: string) => ({ gsi2pk: `AFFILIATEEMAIL#${email.toLowerCase()}`, gsi2sk: creatorId }),
  code: (code: string) => ({ pk: `AFFCODE#${code}`, sk: 'AFFCODE' }),
  click: (clickId: string) => ({ pk: `AFFCLICK#${clickId}`, sk: 'CLICK' }),
  commission: (affiliateId: string, orderId: string) => ({ pk: `AFFILIATE#${affiliateId}`, sk: `COMMISSION#${orderId}` }),
  due: (c: Pick<StoredCommission, 'approveAt' | 'affiliateId' | 'orderId'>) => ({ gsi1pk: 'COMMISSIONS#DUE', gsi1sk: `${c.approveAt}#${c.affiliateId}#${c.orderId}` }),
  approved: (c: Pick<StoredCommission, 'approveAt' | 'affiliateId' | 'orderId'>) => ({ gsi1pk: `AFFILIATE#${c.affiliateId}#APPROVED`, gsi1sk: `${c.approveAt}#${c.orderId}` }),
  payout: (affiliateId: string, payoutId: string) => ({ pk: `AFFILIATE#${affiliateId}`, sk: `PAYOUT#${payoutId}` }),
  payoutLine: (payoutId: string, orderId: string) => ({ pk: `PAYOUT#${payoutId}`, sk: `LINE#${orderId}` }),
  listed: (c: Pick<StoredCommission, 'affiliateId' | 'createdAt' | 'orderId'>) => ({ gsi2pk: `AFFILIATE#${c.affiliateId}#COMMISSIONS`, gsi2sk: `${c.createdAt}#${c.orderId}` }),
  figures: (affiliateId: string) => shardedCounter(`AFFFIGURES#${affiliateId}`, 'FIGURES'),
  byCreator: (a: Pick<StoredAffiliate, 'creatorId' | 'createdAt' | 'id'>) => ({ gsi1pk: `CREATOR#${a.creatorId}#AFFILIATES`, gsi1sk: `${a.createdAt}#${a.id}` }),
};

type Figure = 'clicks' | 'sales' | 'pending' | 'approved' | 'paid' | 'clawedBack';

const affiliateItem = z.object({
  id: z.string(),
  creatorId: z.string(),
  code: z.string(),
  name: z.string(),
  email: z.string(),
  commissionPercent: z.number(),
  cookieDays: z.number().int(),
  holdDays: z.number().int(),
  clicks: z.number().int().default(0),
  sales: z.number().int().default(0),
  pending: z.number().int().default(0),
  approved: z.number().int().default(0),
  paid: z.number().int().default(0),
  clawedBack: z.number().int().default(0),
  createdAt: z.string(),
});
const codeItem = z.object({ code: z.string(), affiliateId: z.string(), creatorId: z.string(), cookieDays: z.number().int() });
const clickItem = z
  .object({ clickId: z.string(), code: z.string(), affiliateId: z.string(), creatorId: z.string(), at: z.string(), windowEndsAt: z.string() })
  .transform(({ windowEndsAt, ...click }) => ({ ...click, expiresAt: windowEndsAt }));
const commissionItem = z.object({
  affiliateId: z.string(),
  creatorId: z.string(),
  orderId: z.string(),
  courseTitle: z.string(),
  orderAmount: z.number().int(),
  amount: z.number().int(),
  status: z.enum(['pending', 'approved', 'void', 'paid']),
  approveAt: z.string(),
  createdAt: z.string(),
  paidAt: z.string().nullable(),
  clawback: z.boolean(),
});
const payoutItem = z.object({
  payoutId: z.string(),
  affiliateId: z.string(),
  amount: z.number().int(),
  lines: z.number().int().default(0),
  createdAt: z.string(),
  complete: z.boolean().default(false),
});

const payoutLine = z.object({ orderId: z.string(), amount: z.number().int(), paidAt: z.string() }).transform(({ orderId, amount, paidAt }) => ({ orderId, amount, paidAt }));

/** One line of a payout: the commission of `orderId` it paid. */
const payoutLineItem = (payoutId: string, affiliateId: string, orderId: string, amount: number, paidAt: string) => ({
  ...affiliateKeys.payoutLine(payoutId, orderId),
  type: 'PayoutLine',
  payoutId,
  affiliateId,
  orderId,
  amount,
  paidAt,
});

/** ADDs to the affiliate's figures, only while it exists. */
/**
 * The move of an affiliate's figures: one ADD to one shard of them (`by`, the order or click, picks it; data/
 * sharded-counters.ts), not to the affiliate item, which every sale of a promotion would write otherwise.
 */
const affiliateFigures = (creatorId: string, affiliateId: string, adds: Partial<Record<Figure, number>>, by?: string) => {
  const figures = affiliateKeys.figures(affiliateId);
  return addUpdate(figures.key(shardOf(by, figures.keys().length)), adds as Record<string, number>, { type: 'AffiliateFigures' });
};

const FIGURES: Figure[] = ['clicks', 'sales', 'pending', 'approved', 'paid', 'clawedBack'];

/** The affiliates with their figures: those still on the item (from before the shards) plus the shards' sums. */
const withFigures = async <T extends { id: string } & Record<Figure, number>>(affiliates: T[]): Promise<T[]> => {
  if (affiliates.length === 0) return affiliates;
  const sums = await readCounters(affiliates.map((a) => affiliateKeys.figures(a.id)), { attributes: FIGURES });
  return affiliates.map((a, i) => ({ ...a, ...Object.fromEntries(FIGURES.map((name) => [name, a[name] + (sums[i]?.[name] ?? 0)])) }));
};

/** A commission's status moved from `from`, under that condition, with `set` and its index keys as given. */
const commissionMove = (
  c: StoredCommission,
  from: StoredCommission['status'],
  set: Record<string, unknown>,
  index: Record<string, string> | null,
  also: { condition: string; values: Record<string, unknown> } = { condition: '', values: {} },
) => {
  const names = Object.keys(set);
  return {
    Update: {
      TableName: tableName(),
      Key: affiliateKeys.commission(c.affiliateId, c.orderId),
      UpdateExpression:
        `SET ${[...names.map((_, i) => `#s${i} = :s${i}`), ...(index ? ['gsi1pk = :gpk', 'gsi1sk = :gsk'] : [])].join(', ')}` + (index ? '' : ' REMOVE gsi1pk, gsi1sk'),
      ConditionExpression: `#status = :from${also.condition}`,
      ExpressionAttributeNames: { '#status': 'status', ...Object.fromEntries(names.map((name, i) => [`#s${i}`, name])) },
      ExpressionAttributeValues: {
        ':from': from,
        ...Object.fromEntries(names.map((name, i) => [`:s${i}`, set[name]])),
        ...(index ? { ':gpk': index['gsi1pk'], ':gsk': index['gsi1sk'] } : {}),
        ...also.values,
      },
    },
  };
};

/**
 * The paid order's referral, in the order's transaction (data/orders.ts markPaid): the affiliate's sale and, when the
 * buyer paid anything, its commission, pending until `approveAt`, with the platform's figures.
 */
export const referralWrites = (input: { creatorId: string; orderId: string; courseTitle: string; orderAmount: number; at: string; affiliateId: string; commission: NewCommission | null }) => {
  const { commission } = input;
  if (!commission) return [affiliateFigures(input.creatorId, input.affiliateId, { sales: 1 }, input.orderId), ...countersUpdate({ affiliate_sales: 1 }, input.orderId)];
  const stored: StoredCommission = {
    affiliateId: commission.affiliateId,
    creatorId: input.creatorId,
    orderId: input.orderId,
    courseTitle: input.courseTitle,
    orderAmount: input.orderAmount,
    amount: commission.amount,
    status: 'pending',
    approveAt: commission.approveAt,
    createdAt: input.at,
    paidAt: null,
    clawback: false,
  };
  return [
    {
      Put: {
        TableName: tableName(),
        Item: { ...affiliateKeys.commission(stored.affiliateId, stored.orderId), type: 'Commission', ...stored, ...affiliateKeys.due(stored), ...affiliateKeys.listed(stored) },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    affiliateFigures(input.creatorId, input.affiliateId, { sales: 1, pending: commission.amount }, input.orderId),
    ...countersUpdate({ affiliate_sales: 1, commissions_total: commission.amount, commissions_pending: commission.amount }, input.orderId),
  ];
};

/**
 * A refunded or disputed order's commission, in the order's transaction (data/orders.ts markReversed): voided while
 * unpaid (its amount leaves the figures), recorded as a clawback once paid (the affiliate owes it back); nothing for
 * one already void. Conditioned on the status it was read in, so a job moving it meanwhile cancels and is read again.
 */
export const reversalWrites = (c: StoredCommission, at: string) => {
  if (c.status === 'void' || (c.status === 'paid' && c.clawback)) return [];
  if (c.status === 'paid') {
    return [
      commissionMove(c, 'paid', { clawback: true, clawbackAt: at }, null, { condition: ' AND clawback = :false', values: { ':false': false } }),
      affiliateFigures(c.creatorId, c.affiliateId, { clawedBack: c.amount }),
      ...countersUpdate({ commissions_clawedback: c.amount }),
    ];
  }
  return [
    commissionMove(c, c.status, { status: 'void', voidedAt: at }, null),
    affiliateFigures(c.creatorId, c.affiliateId, { [c.status]: -c.amount }),
    ...countersUpdate({ commissions_total: -c.amount, [`commissions_${c.status}`]: -c.amount }),
  ];
};

/** The commission of an order, read consistently (what the reversal conditions on). */
export const readCommission = async (affiliateId: string, orderId: string): Promise<StoredCommission | undefined> => {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: affiliateKeys.commission(affiliateId, orderId), ConsistentRead: true }));
  return Item ? commissionItem.parse(Item) : undefined;
};


export const dynamoAffiliates = (): AffiliateRepository => ({
  async create(affiliate, email) {
    const cancelled = await transact([
      { Put: { TableName: tableName(), Item: { ...affiliateKeys.code(affiliate.code), type: 'AffiliateCode', code: affiliate.code, affiliateId: affiliate.id, creatorId: affiliate.creatorId, cookieDays: affiliate.cookieDays }, ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: { TableName: tableName(), Item: { ...affiliateKeys.email(affiliate.creatorId, affiliate.email), ...affiliateKeys.byEmail(affiliate.email, affiliate.creatorId), type: 'AffiliateEmail', affiliateId: affiliate.id, creatorId: affiliate.creatorId }, ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: { TableName: tableName(), Item: { ...affiliateKeys.affiliate(affiliate.creatorId, affiliate.id), type: 'Affiliate', ...affiliate, ...affiliateKeys.byCreator(affiliate) }, ConditionExpression: 'attribute_not_exists(pk)' } },
      ...countersUpdate({ affiliates_total: 1 }),
      mailQueuePut(email),
    ]);
    if (!cancelled) return 'created';
    return failedAt(cancelled, 0) ? 'code-taken' : 'email-taken';
  },

  async list(creatorId) {
    const items = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :affiliate)',
      ExpressionAttributeValues: { ':pk': `CREATOR#${creatorId}`, ':affiliate': 'AFFILIATE#' },
    });
    return withFigures(items.map((item) => affiliateItem.parse(item)).sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id)));
  },

  async page(creatorId, { cursor, limit }) {
    const page = await indexPage({
      index: 'gsi1',
      partition: affiliateKeys.byCreator({ creatorId, createdAt: '', id: '' }).gsi1pk,
      cursor,
      limit,
      cursorKey: { fixed: { pk: `CREATOR#${creatorId}` }, sortPrefix: { name: 'sk', prefix: 'AFFILIATE#' } },
    });
    return { items: await withFigures(page.items.map((item) => affiliateItem.parse(item))), nextCursor: page.nextCursor };
  },

  async get(creatorId, affiliateId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: affiliateKeys.affiliate(creatorId, affiliateId), ConsistentRead: true }));
    return Item ? (await withFigures([affiliateItem.parse(Item)]))[0] : undefined;
  },

  async code(code) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: affiliateKeys.code(code) }));
    return Item ? codeItem.parse(Item) : undefined;
  },

  async recordClick(click, { counted } = { counted: true }) {
    await transact([
      {
        Put: {
          TableName: tableName(),
          // The window's end as a date, and as the table's TTL (epoch seconds): DynamoDB drops the click after it.
          Item: {
            ...affiliateKeys.click(click.clickId),
            type: 'AffiliateClick',
            clickId: click.clickId,
            code: click.code,
            affiliateId: click.affiliateId,
            creatorId: click.creatorId,
            at: click.at,
            windowEndsAt: click.expiresAt,
            expiresAt: Math.ceil(Date.parse(click.expiresAt) / 1000),
          },
        },
      },
      ...(counted ? [affiliateFigures(click.creatorId, click.affiliateId, { clicks: 1 }, click.clickId), ...countersUpdate({ affiliate_clicks: 1 })] : []),
    ]);
  },

  async click(clickId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: affiliateKeys.click(clickId) }));
    return Item ? clickItem.parse(Item) : undefined;
  },

  commission: readCommission,

  async commissions(affiliateId, { cursor, limit }) {
    const page = await indexPage({
      index: 'gsi2',
      partition: affiliateKeys.listed({ affiliateId, createdAt: '', orderId: '' }).gsi2pk,
      cursor,
      limit,
      cursorKey: { fixed: { pk: `AFFILIATE#${affiliateId}` }, sortPrefix: { name: 'sk', prefix: 'COMMISSION#' } },
    });
    return { items: page.items.map((item) => commissionItem.parse(item)), nextCursor: page.nextCursor };
  },

  async dueForApproval(now, limit, after) {
    const { Items = [], LastEvaluatedKey } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk <= :now',
        ExpressionAttributeValues: { ':pk': 'COMMISSIONS#DUE', ':now': `${now}#~` },
        Limit: limit,
        ...(after ? { ExclusiveStartKey: decodeCursor(after, { gsi1pk: 'COMMISSIONS#DUE' }, { name: 'sk', prefix: 'COMMISSION#' }) } : {}),
      }),
    );
    return { items: Items.map((item) => commissionItem.parse(item)), nextCursor: encodeCursor(LastEvaluatedKey) ?? null };
  },

  async approve(c, now) {
    const cancelled = await transact([
      commissionMove(c, 'pending', { status: 'approved' }, affiliateKeys.approved(c), { condition: ' AND approveAt <= :now', values: { ':now': now } }),
      affiliateFigures(c.creatorId, c.affiliateId, { pending: -c.amount, approved: c.amount }),
      ...countersUpdate({ commissions_pending: -c.amount, commissions_approved: c.amount }),
    ]);
    return !cancelled;
  },

  async approved(affiliateId) {
    const items = await queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': `AFFILIATE#${affiliateId}#APPROVED` },
    });
    return items.map((item) => commissionItem.parse(item)).filter((c) => c.status === 'approved');
  },

  async payout(affiliateId, payoutId) {
    const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: affiliateKeys.payout(affiliateId, payoutId), ConsistentRead: true }));
    return Item ? payoutItem.parse(Item) : undefined;
  },

  async payoutLines(payoutId, { cursor, limit }) {
    const pk = affiliateKeys.payoutLine(payoutId, '').pk;
    const { Items = [], LastEvaluatedKey } = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :line)',
        ExpressionAttributeValues: { ':pk': pk, ':line': 'LINE#' },
        ProjectionExpression: 'pk, sk, orderId, amount, paidAt',
        ConsistentRead: true,
        Limit: limit,
        ...(cursor ? { ExclusiveStartKey: decodeCursor(cursor, { pk }, { name: 'sk', prefix: 'LINE#' }) } : {}),
      }),
    );
    return { items: Items.map((item) => payoutLine.parse(item)), nextCursor: encodeCursor(LastEvaluatedKey) ?? null };
  },

  async pay({ affiliateId, creatorId, payoutId, commissions, at }) {
    if (commissions.length > PAYOUT_BATCH) throw new Error(`a payout transaction takes at most ${PAYOUT_BATCH} commissions`);
    const amount = commissions.reduce((sum, c) => sum + c.amount, 0);
    // The commissions first: a failed condition names its commission by its index (`stale` below).
    const cancelled = await transact([
      ...commissions.map((c) => commissionMove(c, 'approved', { status: 'paid', paidAt: at, payoutId }, null)),
      ...commissions.map((c) => ({ Put: { TableName: tableName(), Item: payoutLineItem(payoutId, c.affiliateId, c.orderId, c.amount, at) } })),
      affiliateFigures(creatorId, affiliateId, { approved: -amount, paid: amount }),
      ...countersUpdate({ commissions_approved: -amount, commissions_paid: amount }),
      {
        Update: {
          TableName: tableName(),
          Key: affiliateKeys.payout(affiliateId, payoutId),
          UpdateExpression:
            'SET #type = :type, payoutId = :id, affiliateId = :affiliate, createdAt = if_not_exists(createdAt, :at) ADD amount :amount, #lines :lines',
          ExpressionAttributeNames: { '#type': 'type', '#lines': 'lines' },
          ExpressionAttributeValues: { ':type': 'Payout', ':id': payoutId, ':affiliate': affiliateId, ':at': at, ':amount': amount, ':lines': commissions.length },
        },
      },
    ]);
    if (!cancelled) return { paid: true, stale: [] };
    return { paid: false, stale: commissions.filter((_, i) => failedAt(cancelled, i)).map((c) => c.orderId) };
  },

  async completePayout(affiliateId, payoutId) {
    await writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: affiliateKeys.payout(affiliateId, payoutId),
          UpdateExpression: 'SET complete = :true',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':true': true },
        }),
      ),
    );
  },
});

/**
 * Migration (issue 28, bin/backfill.ts): affiliates made before the paged list get its index keys (gsi1, newest first).
 * Idempotent: a second run finds none without them. Returns how many it indexed.
 */
export const backfillAffiliateIndex = (): Promise<number> =>
  backfillIndexKeys({
    type: 'Affiliate',
    index: 'gsi1',
    projection: 'creatorId, id, createdAt',
    keysOf: (item) => {
      const parsed = z.object({ creatorId: z.string(), id: z.string(), createdAt: z.string() }).safeParse(item);
      if (!parsed.success) return undefined; // a partial item (no date to list it by): left alone
      const { gsi1pk, gsi1sk } = affiliateKeys.byCreator(parsed.data);
      return { key: affiliateKeys.affiliate(parsed.data.creatorId, parsed.data.id), pk: gsi1pk, sk: gsi1sk };
    },
  });

/**
 * Migration (issue 37, bin/backfill.ts): email claims written before their gsi2 get it, so the account deletion finds
 * every creator's affiliate of a deleted person's email. The email is the claim's own sort key. Idempotent.
 */
export const backfillAffiliateEmailIndex = (): Promise<number> =>
  backfillIndexKeys({
    type: 'AffiliateEmail',
    index: 'gsi2',
    projection: 'pk, sk, creatorId',
    keysOf: (item) => {
      const parsed = z.object({ sk: z.string().startsWith('AFFEMAIL#'), creatorId: z.string() }).safeParse(item);
      if (!parsed.success) return undefined;
      const email = parsed.data.sk.slice('AFFEMAIL#'.length);
      const { gsi2pk, gsi2sk } = affiliateKeys.byEmail(email, parsed.data.creatorId);
      return { key: affiliateKeys.email(parsed.data.creatorId, email), pk: gsi2pk, sk: gsi2sk };
    },
  });

/**
 * Migration (issue 28, bin/backfill.ts): commissions written before the paged list get its index keys (gsi2, newest
 * first). Idempotent: a second run finds none without them. Returns how many it indexed.
 */
export const backfillCommissionIndex = (): Promise<number> =>
  backfillIndexKeys({
    type: 'Commission',
    index: 'gsi2',
    projection: 'affiliateId, orderId, createdAt',
    keysOf: (item) => {
      const c = z.object({ affiliateId: z.string(), orderId: z.string(), createdAt: z.string() }).parse(item);
      const { gsi2pk, gsi2sk } = affiliateKeys.listed(c);
      return { key: affiliateKeys.commission(c.affiliateId, c.orderId), pk: gsi2pk, sk: gsi2sk };
    },
  });

/**
 * Migration (issue 28, bin/backfill.ts): payouts of the earlier shape, their order ids in one `orderIds` list (400 KB
 * at ~13k), get a line item per order (its commission's amount) and lose the list, `lines` set to their count. The
 * lines are written before the list goes, so a run stopped halfway is finished by the next; a second run finds
 * nothing. Returns how many payouts it moved.
 */
export const backfillPayoutLines = async (): Promise<number> => {
  let moved = 0;
  await forEachOfType('Payout', async (item) => {
    const payout = z.object({ payoutId: z.string(), affiliateId: z.string(), orderIds: z.array(z.string()), createdAt: z.string() }).parse(item);
    for (let i = 0; i < payout.orderIds.length; i += 100) {
      const orderIds = payout.orderIds.slice(i, i + 100);
      const found = await batchGet(orderIds.map((orderId) => affiliateKeys.commission(payout.affiliateId, orderId)), { projection: 'orderId, amount, paidAt' });
      const commissions = new Map(found.map((c) => [String(c['orderId']), c]));
      await batchWrite(
        orderIds.map((orderId) => {
          const c = commissions.get(orderId);
          const paidAt = typeof c?.['paidAt'] === 'string' ? c['paidAt'] : payout.createdAt;
          return { PutRequest: { Item: payoutLineItem(payout.payoutId, payout.affiliateId, orderId, Number(c?.['amount'] ?? 0), paidAt) } };
        }),
      );
    }
    const done = await writeIf(() =>
      documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: affiliateKeys.payout(payout.affiliateId, payout.payoutId),
          UpdateExpression: 'SET #lines = :lines REMOVE orderIds',
          ConditionExpression: 'attribute_exists(orderIds)',
          ExpressionAttributeNames: { '#lines': 'lines' },
          ExpressionAttributeValues: { ':lines': new Set(payout.orderIds).size },
        }),
      ),
    );
    if (done) moved++;
  }, { filter: 'attribute_exists(orderIds)' });
  return moved;
};
