import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamoAdminStats } from '#data/admin-stats.ts';
import { affiliateKeys, dynamoAffiliates } from '#data/affiliates.ts';
import { backfillCounterShards } from '#data/counter-shards-backfill.ts';
import { legacyCountersKey, readPlatformCounters } from '#data/counters.ts';
import { courseKeys, dynamoCourses, legacyCreatorStatsKey, readCreatorStats } from '#data/courses.ts';
import { dynamoCrm } from '#data/crm.ts';
import { dynamoOrders, orderKeys } from '#data/orders.ts';
import { packedCodec } from '#data/packed-counters.ts';
import { documentClient, tableName } from '#data/table.ts';
import { resetConfig } from '#functions/config.ts';
import { ensureTable } from '#lib/local/dynamodb/dynamodb-local.ts';
import { outputs, useLocalCloudEnv } from '../support.ts';
import { deleteTable, unique } from './data-support.ts';

// This test's own table (TABLE_NAME while it runs), not the suite's.
const putRaw = (item: Record<string, unknown>) => documentClient().send(new PutCommand({ TableName: tableName(), Item: item }));
const rawItem = async (key: { pk: string; sk: string }) => (await documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

beforeAll(useLocalCloudEnv);

const twoDays = packedCodec([6, 11, 6]);
const amountAndCount = packedCodec([7]);
const dayFunnel = packedCodec([6, 7]);

describe('the counters moved into their shards (npm run backfill, DynamoDB Local)', () => {
  it('reads the same totals from a table from before the shards, before and after the move, which happens once', async () => {
    // A table of its own: the migration scans the whole table.
    const table = unique('shards-table');
    await ensureTable(outputs().DynamoDbEndpoint, table, { stream: false });
    const shared = process.env['TABLE_NAME'];
    try {
      process.env['TABLE_NAME'] = table;
      resetConfig();
      const [creatorId, courseId, affiliateId] = [unique('creator'), unique('course'), unique('affiliate')];
      const week = '2026-11-23';
      // The items as the code before the shards wrote them.
      await putRaw({ ...legacyCountersKey, type: 'Counters', usersTotal: 40, users_creator: 3, courses_total: 2 });
      await putRaw({ pk: 'COUNTERS', sk: `WEEK#${week}`, type: 'WeekCounters', weekStart: week, signUps: 6, paying_pro: 1 });
      await putRaw({ ...legacyCreatorStatsKey(creatorId), type: 'CreatorStats', courses: 2, students: 7, completions: 3, certificates: 1 });
      const course = { id: courseId, creatorId, title: 'Knife skills', description: '', status: 'published', lessonCount: 0, enrolledCount: 7, priceAmount: 2500, seatPriceAmount: 0, createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z' };
      await putRaw({ ...courseKeys.course(courseId), ...courseKeys.byCreator(creatorId, course.createdAt, courseId), type: 'Course', ...course });
      // Day 25 is the first half of pair p12; two sales of 2,500 that day, one refund of 2,500 on the 26th.
      await putRaw({
        ...orderKeys.legacyMonth(creatorId, '2026-11-01'),
        type: 'SalesCounters',
        revenue: 2500,
        sales: 2,
        discount: 0,
        refunds: 1,
        views: 9,
        checkouts: 4,
        p12: twoDays.delta(0, 2, 5000, 0),
        r26: 2500,
        [`c_${courseId}`]: amountAndCount.delta(2500, 2),
      });
      await putRaw({
        ...orderKeys.legacyDays(creatorId, '2026-11-01'),
        type: 'SalesDays',
        [`25c_${courseId}`]: amountAndCount.delta(5000, 2),
        [`26c_${courseId}`]: amountAndCount.delta(-2500, 0),
        '25f': dayFunnel.delta(9, 0, 4),
        '26f': dayFunnel.delta(0, 1, 0),
      });
      await putRaw({
        ...affiliateKeys.affiliate(creatorId, affiliateId),
        type: 'Affiliate',
        id: affiliateId,
        creatorId,
        code: 'ANN',
        name: 'Ann',
        email: 'ann@example.com',
        commissionPercent: 20,
        cookieDays: 30,
        holdDays: 14,
        clicks: 12,
        sales: 2,
        pending: 500,
        approved: 0,
        paid: 0,
        clawedBack: 0,
        createdAt: '2026-11-01T00:00:00.000Z',
      });

      const read = async () => ({
        platform: await readPlatformCounters(['usersTotal', 'users_creator', 'courses_total'], { consistent: true }),
        week: (await dynamoAdminStats().read({ weekStarts: [week], activityLimit: 1 })).weeks,
        stats: await readCreatorStats(creatorId, { consistent: true }),
        crm: await dynamoCrm().counters(creatorId),
        enrolled: (await dynamoCourses().getCourse(courseId))?.enrolledCount,
        listed: (await dynamoCourses().listByCreator(creatorId)).map((c) => c.enrolledCount),
        month: await dynamoOrders().salesWindow(creatorId, '2026-11-01', '2026-11-30'),
        cut: await dynamoOrders().salesWindow(creatorId, '2026-11-20', '2026-11-30'),
        revenue: await dynamoOrders().monthRevenue(creatorId, '2026-11'),
        affiliate: await dynamoAffiliates().get(creatorId, affiliateId),
      });
      const before = await read();
      expect(before).toMatchObject({
        platform: { usersTotal: 40, users_creator: 3, courses_total: 2 },
        week: [{ weekStart: week, signUps: 6, paying: { starter: 0, pro: 1 } }],
        stats: { courses: 2, students: 7, completions: 3, certificates: 1 },
        enrolled: 7,
        listed: [7],
        revenue: 2500,
        affiliate: { clicks: 12, sales: 2, pending: 500 },
      });
      const sales = {
        days: [
          { date: '2026-11-25', revenue: 5000, sales: 2 },
          { date: '2026-11-26', revenue: -2500, sales: 0 },
        ],
        refunds: 1,
        views: 9,
        checkouts: 4,
        byCourse: { [courseId]: { revenue: 2500, sales: 2 } },
        byCoupon: {},
      };
      expect(before.month).toEqual(sales);
      expect(before.cut).toEqual(sales);

      const moved = await backfillCounterShards();
      expect(moved).toEqual({ platform: 1, weeks: 1, creatorStats: 1, salesMonths: 1, salesDays: 1, courses: 1, affiliates: 1 });
      expect(await read()).toEqual(before);
      // The old items are gone, or keep no figure.
      expect(await rawItem(legacyCountersKey)).toBeUndefined();
      expect(await rawItem(legacyCreatorStatsKey(creatorId))).toBeUndefined();
      expect(await rawItem(orderKeys.legacyMonth(creatorId, '2026-11-01'))).toBeUndefined();
      expect(await rawItem(orderKeys.legacyDays(creatorId, '2026-11-01'))).toBeUndefined();
      expect(await rawItem(courseKeys.course(courseId))).not.toHaveProperty('enrolledCount');
      expect(await rawItem(affiliateKeys.affiliate(creatorId, affiliateId))).not.toHaveProperty('clicks');
      expect(await rawItem(orderKeys.day(creatorId, '2026-11-25').key(0))).toMatchObject({ type: 'SalesDay' });

      // Once: a second run finds nothing to move and the totals stay.
      expect(await backfillCounterShards()).toEqual({ platform: 0, weeks: 0, creatorStats: 0, salesMonths: 0, salesDays: 0, courses: 0, affiliates: 0 });
      expect(await read()).toEqual(before);
    } finally {
      process.env['TABLE_NAME'] = shared;
      resetConfig();
      await deleteTable(table);
    }
  });
});
