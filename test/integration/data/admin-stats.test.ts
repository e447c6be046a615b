import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StoredSubscription } from '#core/ports.ts';
import { lastWeekStarts, weekStartOf } from '#core/admin/platform-figures.ts';
import { counterDeltas } from '#core/billing/subscription-state.ts';
import { adminStatsKeys, backfillPayingCounters, dynamoAdminStats } from '#data/admin-stats.ts';
import { dynamoBilling } from '#data/billing.ts';
import { countersKey, countRoleChange } from '#data/counters.ts';
import { documentClient, tableName, transact } from '#data/table.ts';
import { dynamoUsers } from '#data/users.ts';
import { counters } from '../billing-support.ts';
import { useLocalCloudEnv } from '../support.ts';
import { rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

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
    const after: StoredSubscription = {
      userId,
      subscriptionId: `sub_${userId}`,
      customerId: `cus_${userId}`,
      status: 'active',
      tier: 'pro',
      trialEnd: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      lastEventAt: 100,
      lastEventRank: 2,
      updatedAt: new Date().toISOString(),
      hasSubscribed: true,
    };
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
    const billing = dynamoBilling();
    for (const tier of ['starter', 'pro', 'pro'] as const) {
      const userId = unique('backfill-sub');
      const sub: StoredSubscription = {
        userId,
        subscriptionId: `sub_${userId}`,
        customerId: `cus_${userId}`,
        status: 'active',
        tier,
        trialEnd: null,
        currentPeriodEnd: null,
        cancelAtPeriodEnd: false,
        lastEventAt: 100,
        lastEventRank: 2,
        updatedAt: new Date().toISOString(),
        hasSubscribed: true,
      };
      await billing.applySubscriptionEvent({ event: { id: `evt_${userId}`, type: 'customer.subscription.created' }, before: undefined, after: sub, counters: counterDeltas(undefined, sub) });
    }
    // The oracle: the paid-up subscriptions as the index holds them now.
    const { Items = [] } = await documentClient().send(
      new QueryCommand({ TableName: tableName(), IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': 'SUBSTATE#active' } }),
    );
    const expected = { starter: Items.filter((i) => i['tier'] === 'starter').length, pro: Items.filter((i) => i['tier'] === 'pro').length };
    expect(expected.pro).toBeGreaterThanOrEqual(2);
    const kept = await counters();
    const remove = () =>
      documentClient().send(new UpdateCommand({ TableName: tableName(), Key: countersKey, UpdateExpression: 'REMOVE subs_paying_starter, subs_paying_pro' }));
    await remove();

    expect(await backfillPayingCounters()).toEqual(expected);
    expect(await counters()).toMatchObject({ subs_paying_starter: expected.starter, subs_paying_pro: expected.pro });
    expect(await backfillPayingCounters()).toBeUndefined();
    // As the rest of the suite left them (they were right: the backfill found the same).
    expect(kept).toMatchObject({ subs_paying_starter: expected.starter, subs_paying_pro: expected.pro });
  });
});
