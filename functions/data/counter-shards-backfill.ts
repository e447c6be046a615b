import { type AttributeValue, GetItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { NumberValue } from '@aws-sdk/lib-dynamodb';
import { backfillWeekShards } from '#data/admin-stats.ts';
import { affiliateKeys } from '#data/affiliates.ts';
import { backfillPlatformShards } from '#data/counters.ts';
import { creatorStats, enrolledCounter, legacyCreatorStatsKey } from '#data/courses.ts';
import { orderKeys } from '#data/orders.ts';
import { moveToShard } from '#data/sharded-counters.ts';
import { addUpdate, documentClient, tableName, transact } from '#data/table.ts';

/**
 * The one-off migration of the counters to their shards (issue 28 point 3, docs/decisions/0035-no-hot-items.md), run by
 * `npm run backfill` after the deploy. Every reader already sums the item from before the shards with them, so the
 * totals read the same before, during and after it; it moves each old figure into shard 0 once, in a transaction that
 * holds only while the old item still has the values it read (data/sharded-counters.ts moveToShard): a second run, or
 * two at once, moves nothing twice. What it moves:
 *   COUNTERS / PLATFORM and COUNTERS / WEEK#...            -> COUNTERS#0 (the same sort keys), the old items deleted
 *   CREATOR#<id> / STATS                                  -> CREATORSTATS#<id>#0 / STATS, deleted
 *   CREATOR#<id> / SALESMONTH#<YYYY-MM>                    -> SALES#<id>#0 / MONTH#<YYYY-MM>, deleted
 *   CREATOR#<id> / SALESDAYS#<YYYY-MM> (<DD>c_.., <DD>f)   -> SALES#<id>#0 / DAY#<YYYY-MM-DD> (c_.., f), deleted
 *   COURSE#<id> / COURSE  enrolledCount                   -> ENROLLED#<id>#0 / COUNT  enrolled, the attribute removed
 *   CREATOR#<id> / AFFILIATE#<aid>  clicks, sales, ...    -> AFFFIGURES#<aid>#0 / FIGURES, the attributes removed
 * A coupon without a limit keeps the `redeemed` it had on its item: the readers add it to its shards'.
 * One Scan of the table (a migration, never a request path). Answers how many items it moved, by kind.
 */
export const backfillCounterShards = async (): Promise<Record<string, number>> => {
  const moved = { platform: 0, weeks: 0, creatorStats: 0, salesMonths: 0, salesDays: 0, courses: 0, affiliates: 0 };
  if (await backfillPlatformShards()) moved.platform++;
  moved.weeks = await backfillWeekShards();
  let start: Record<string, AttributeValue> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression:
          '(begins_with(pk, :creator) AND (sk = :stats OR begins_with(sk, :month) OR begins_with(sk, :days) OR begins_with(sk, :affiliate))) OR (sk = :course AND attribute_exists(enrolledCount) AND enrolledCount <> :zero)',
        ExpressionAttributeValues: {
          ':creator': { S: 'CREATOR#' },
          ':stats': { S: 'STATS' },
          ':month': { S: 'SALESMONTH#' },
          ':days': { S: 'SALESDAYS#' },
          ':affiliate': { S: 'AFFILIATE#' },
          ':course': { S: 'COURSE' },
          // A course made since still carries the 0 it was created with: nothing to move.
          ':zero': { N: '0' },
        },
        ProjectionExpression: 'pk, sk',
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const item of page.Items ?? []) {
      const [pk, sk] = [item['pk']?.S ?? '', item['sk']?.S ?? ''];
      const id = pk.slice(pk.indexOf('#') + 1);
      const key = { pk, sk };
      if (sk === 'COURSE') {
        if (await moveToShard(key, enrolledCounter(id).key(0), { remove: 'attributes', attributes: ['enrolledCount'], rename: { enrolledCount: 'enrolled' }, type: 'EnrolledCount' })) moved.courses++;
      } else if (sk === 'STATS') {
        if (await moveToShard(legacyCreatorStatsKey(id), creatorStats(id).key(0), { remove: 'item', type: 'CreatorStats' })) moved.creatorStats++;
      } else if (sk.startsWith('SALESMONTH#')) {
        const at = `${sk.slice('SALESMONTH#'.length)}-01`;
        if (await moveToShard(orderKeys.legacyMonth(id, at), orderKeys.month(id, at).key(0), { remove: 'item', type: 'SalesCounters' })) moved.salesMonths++;
      } else if (sk.startsWith('SALESDAYS#')) {
        if (await moveDays(id, sk.slice('SALESDAYS#'.length))) moved.salesDays++;
      } else if (sk.startsWith('AFFILIATE#')) {
        const affiliateId = sk.slice('AFFILIATE#'.length);
        const figures = ['clicks', 'sales', 'pending', 'approved', 'paid', 'clawedBack'];
        if (await moveToShard(key, affiliateKeys.figures(affiliateId).key(0), { remove: 'attributes', attributes: figures, type: 'AffiliateFigures' })) moved.affiliates++;
      }
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return moved;
};

/**
 * A month's day details from before the shards (one item, `<DD><figure>` attributes) split into shard 0's day items,
 * and the old item deleted, in one transaction (at most 31 days and the delete) that holds only while the old item is
 * as read. Whether it moved it.
 */
const moveDays = async (creatorId: string, month: string): Promise<boolean> => {
  const from = orderKeys.legacyDays(creatorId, `${month}-01`);
  const { Item } = await documentClient().send(new GetItemCommand({ TableName: tableName(), Key: { pk: { S: from.pk }, sk: { S: from.sk } }, ConsistentRead: true }));
  if (!Item) return false;
  const byDay = new Map<string, Record<string, NumberValue>>();
  const figures = Object.entries(Item).filter((entry): entry is [string, { N: string }] => /^\d{2}(c_|k_|f$)/.test(entry[0]) && entry[1].N !== undefined);
  for (const [name, value] of figures) {
    const day = name.slice(0, 2);
    byDay.set(day, { ...byDay.get(day), [name.slice(2)]: NumberValue.from(value.N) });
  }
  const names = Object.fromEntries(figures.map(([name], i) => [`#f${i}`, name]));
  const values = Object.fromEntries(figures.map(([, value], i) => [`:f${i}`, NumberValue.from(value.N)]));
  const cancelled = await transact([
    ...[...byDay].map(([day, adds]) => addUpdate(orderKeys.day(creatorId, `${month}-${day}`).key(0), adds, { type: 'SalesDay' })),
    {
      Delete: {
        TableName: tableName(),
        Key: from,
        ...(figures.length > 0
          ? { ConditionExpression: figures.map((_, i) => `#f${i} = :f${i}`).join(' AND '), ExpressionAttributeNames: names, ExpressionAttributeValues: values }
          : { ConditionExpression: 'attribute_exists(pk)' }),
      },
    },
  ]);
  return !cancelled;
};
