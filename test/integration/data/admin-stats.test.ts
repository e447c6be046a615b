import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StoredSubscription } from '#core/ports.ts';
import { lastWeekStarts, weekStartOf } from '#core/admin/platform-figures.ts';
import { counterDeltas } from '#core/billing/subscription-state.ts';
import { adminStatsKeys, backfillPayingCounters, dynamoAdminStats } from '#data/admin-stats.ts';
import { dynamoBilling } from '#data/billing.ts';
import { backfillCourseFigures, creatorStatsUpdate } from '#data/courses.ts';
import { countRoleChange, platformCounters } from '#data/counters.ts';
import { documentClient, transact } from '#data/table.ts';
import { resetConfig } from '#functions/config.ts';
import { ensureTable } from '#lib/local/dynamodb/dynamodb-local.ts';
import { dynamoUsers } from '#data/users.ts';
import { counters } from '../billing-support.ts';
import { outputs, useLocalCloudEnv } from '../support.ts';
import { deleteTable, rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

/** A subscription as Stripe's latest event left it. */
const subscription = (userId: string, tier: 'starter' | 'pro', status: StoredSubscription['status']): StoredSubscription => ({
  userId,
  subscriptionId: `sub_${userId}`,
  customerId: `cus_${userId}`,
  status,
  tier,
  trialEnd: null,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  lastEventAt: 100,
  lastEventRank: 2,
  updatedAt: new Date().toISOString(),
  hasSubscribed: true,
});

const read = () => dynamoAdminStats().read({ weekStarts: lastWeekStarts(new Date()), activityLimit: 10 });
const thisWeek = async () => (await read()).weeks.find((week) => week.weekStart === weekStartOf(new Date()));

describe('the admin stats items (DynamoDB Local)', () => {
  it("counts a new account in its week's sign-ups and adds its activity line, in the account's own transaction", async () => {
    const id = unique('admin-stats-user');
    const user = { id, email: `${id}@example.com`, role: 'creator' as const, createdAt: new Date().toISOString() };
    const before = { counters: await counters(), week: await thisWeek() };
    await dynamoUsers().createUser(user);
    const after = await read();
    expect((after.counters['users_creator'] ?? 0) - (before.counters['users_creator'] ?? 0)).toBe(1);
    expect(after.weeks.find((week) => week.weekStart === weekStartOf(user.createdAt))!.signUps - (before.week?.signUps ?? 0)).toBe(1);
    // Among the newest lines (other suites' accounts may carry later, even future, dates).
    expect(after.activity).toContainEqual({ kind: 'sign-up', text: `New creator: ${user.email}`, at: user.createdAt });
    const stored = await rawItem(adminStatsKeys.activity(user.createdAt, id));
    expect(stored!['expiresAt']).toBe(Math.floor(Date.parse(user.createdAt) / 1000) + 30 * 86_400);
  });

  it('moves the paid-up counts and writes the activity with the subscription change, once per event', async () => {
    const billing = dynamoBilling();
    const userId = unique('admin-stats-sub');
    const after = subscription(userId, 'pro', 'active');
    const event = { id: `evt_${userId}`, type: 'customer.subscription.created' };
    const before = { counters: await counters(), week: await thisWeek() };
    const input = { event, before: undefined, after, counters: counterDeltas(undefined, after) };
    expect(await billing.applySubscriptionEvent(input)).toBe('applied');
    expect(await billing.applySubscriptionEvent(input)).toBe('duplicate');
    const stats = await read();
    expect((stats.counters['subs_paying_pro'] ?? 0) - (before.counters['subs_paying_pro'] ?? 0)).toBe(1);
    expect((await thisWeek())!.paying.pro - (before.week?.paying.pro ?? 0)).toBe(1);
    expect(stats.activity.filter((line) => line.at === after.updatedAt)).toEqual([{ kind: 'subscription', text: 'A creator subscribed to Pro', at: after.updatedAt }]);
  });

  it('moves a user between role counters on a role change, keeping the total, and nothing for the same role', async () => {
    const before = await counters();
    expect(countRoleChange('learner', 'learner')).toEqual([]);
    expect(await transact(countRoleChange('learner', 'leader'))).toBeUndefined();
    const after = await counters();
    expect((after['users_learner'] ?? 0) - (before['users_learner'] ?? 0)).toBe(-1);
    expect((after['users_leader'] ?? 0) - (before['users_leader'] ?? 0)).toBe(1);
    expect(after['usersTotal']).toBe(before['usersTotal']);
    await transact(countRoleChange('leader', 'learner'));
  });

  it('backfills the paid-up counters of a table that predates them from the paid-up subscriptions, once', async () => {
    // A table of its own: the shared one's subscriptions move under webhooks the rest of the suite set off.
    const table = unique('backfill-table');
    await ensureTable(outputs().DynamoDbEndpoint, table, { stream: false });
    const shared = process.env['TABLE_NAME'];
    try {
      process.env['TABLE_NAME'] = table;
      resetConfig();
      const billing = dynamoBilling();
      const subscribe = async (tier: 'starter' | 'pro', status: string) => {
        const userId = unique('backfill-sub');
        const sub = subscription(userId, tier, status);
        await billing.applySubscriptionEvent({ event: { id: `evt_${userId}`, type: 'customer.subscription.created' }, before: undefined, after: sub, counters: counterDeltas(undefined, sub) });
      };
      // Paid up: one Starter, two Pro; on trial or unpaid: not revenue.
      for (const [tier, status] of [['starter', 'active'], ['pro', 'active'], ['pro', 'active'], ['starter', 'trialing'], ['pro', 'past_due']] as const) await subscribe(tier, status);
      expect(await counters(table)).toMatchObject({ subs_paying_starter: 1, subs_paying_pro: 2 });
      for (const key of platformCounters.keys()) await documentClient().send(new UpdateCommand({ TableName: table, Key: key, UpdateExpression: 'REMOVE subs_paying_starter, subs_paying_pro' }));

      expect(await backfillPayingCounters()).toEqual({ starter: 1, pro: 2 });
      expect(await counters(table)).toMatchObject({ subs_paying_starter: 1, subs_paying_pro: 2 });
      // Once: a second run leaves the counters alone, and so do the subscriptions that move them from then on.
      await subscribe('pro', 'active');
      expect(await backfillPayingCounters()).toBeUndefined();
      expect(await counters(table)).toMatchObject({ subs_paying_starter: 1, subs_paying_pro: 3 });
    } finally {
      process.env['TABLE_NAME'] = shared;
      resetConfig();
      await deleteTable(table);
    }
  });

  it("backfills the platform's course figures of a table that predates them from the creators' counters, once", async () => {
    const table = unique('backfill-courses');
    await ensureTable(outputs().DynamoDbEndpoint, table, { stream: false });
    const shared = process.env['TABLE_NAME'];
    try {
      process.env['TABLE_NAME'] = table;
      resetConfig();
      // Two creators' counters as an older version wrote them (without the platform's sums).
      await transact([...creatorStatsUpdate(unique('c1'), { courses: 2, students: 5, completions: 1 }), ...creatorStatsUpdate(unique('c2'), { courses: 1, students: 3, completions: 2 })]);
      expect(await backfillCourseFigures()).toEqual({ courses: 3, enrollments: 8, completed: 3 });
      expect(await counters(table)).toMatchObject({ courses_total: 3, enrollments_active: 8, enrollments_completed: 3 });
      expect(await backfillCourseFigures()).toBeUndefined();
      expect(await counters(table)).toMatchObject({ courses_total: 3, enrollments_active: 8, enrollments_completed: 3 });
    } finally {
      process.env['TABLE_NAME'] = shared;
      resetConfig();
      await deleteTable(table);
    }
  });
});
