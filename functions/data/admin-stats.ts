import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { platformActivity, type PlatformActivity } from '#contracts/admin.ts';
import type { CounterDeltas, StoredSubscription, User } from '#core/ports.ts';
import { signUpActivity, subscriptionActivity } from '#core/admin/platform-activity.ts';
import { weekStartOf } from '#core/admin/platform-figures.ts';
import { ACTIVITY_DAYS, type PlatformStatsReader } from '#core/admin/platform-stats.ts';
import { platformCounters, setCountersOnce } from '#data/counters.ts';
import { moveToShard, readCounters, shardedCounter, shardUpdate } from '#data/sharded-counters.ts';
import { documentClient, tableName } from '#data/table.ts';

/**
 * The admin's trend weeks and recent activity (access pattern 18, with the platform counters of counters.ts). Both are
 * written in the same transaction as the change they record (a sign-up, a subscription event), so they can never
 * disagree with the counters, and a redelivered event that is refused as a duplicate writes neither.
 * Week:      pk COUNTERS#<0..15>  sk WEEK#<monday YYYY-MM-DD>  weekStart, signUps, paying_<plan> (net change of paid-up
 *            subscriptions that week): sharded like the platform counters (data/sharded-counters.ts), one shard per
 *            write, the week's figures the sum of its 16 shards (read with the counters in one set of BatchGetItems)
 * Activity:  pk ACTIVITY  sk <at>#<id>                 kind, text, at, expiresAt (TTL 30 days)
 */
export const adminStatsKeys = {
  week: (weekStart: string) => shardedCounter('COUNTERS', `WEEK#${weekStart}`, { legacy: adminStatsKeys.legacyWeek(weekStart) }),
  /** A week's item from before the shards: read with them until the migration moves it into shard 0. */
  legacyWeek: (weekStart: string) => ({ pk: 'COUNTERS', sk: `WEEK#${weekStart}` }),
  activity: (at: string, id: string) => ({ pk: 'ACTIVITY', sk: `${at}#${id}` }),
};

const ACTIVITY_TTL_SECONDS = ACTIVITY_DAYS * 24 * 60 * 60;

/** Adds `deltas` to one shard of the week's counters (none when nothing moves); `by` picks the shard. */
const weekUpdate = (weekStart: string, deltas: CounterDeltas, by?: string) => shardUpdate(adminStatsKeys.week(weekStart), deltas, { by, type: 'WeekCounters', set: { weekStart } });

/** One activity line; `id` (the user or the Stripe event) keeps two lines of the same millisecond apart. */
export const activityPut = (activity: PlatformActivity, id: string) => ({
  Put: {
    TableName: tableName(),
    Item: {
      ...adminStatsKeys.activity(activity.at, id),
      type: 'Activity',
      ...activity,
      expiresAt: Math.floor(Date.parse(activity.at) / 1000) + ACTIVITY_TTL_SECONDS,
    },
  },
});

/** The items a new account adds to its creation transaction: its week's sign-up and its activity line. */
export const signUpRecords = (user: User) => [...weekUpdate(weekStartOf(user.createdAt), { signUps: 1 }, user.id), activityPut(signUpActivity(user), user.id)];

/**
 * The items a subscription event adds to its transaction: the week's net change of paid-up subscriptions (taken from
 * the same counter deltas as the platform item) and an activity line when the state or the plan changed.
 */
export const subscriptionRecords = (input: { eventId: string; before: StoredSubscription | undefined; after: StoredSubscription; counters: CounterDeltas }) => {
  const paying = Object.fromEntries(
    Object.entries(input.counters)
      .filter(([name]) => name.startsWith('subs_paying_'))
      .map(([name, delta]) => [name.replace('subs_', ''), delta]),
  );
  const activity = subscriptionActivity(input.before, input.after);
  return [...weekUpdate(weekStartOf(input.after.updatedAt), paying), ...(activity ? [activityPut(activity, input.eventId)] : [])];
};


export const dynamoAdminStats = (): PlatformStatsReader => ({
  async read({ weekStarts, activityLimit }) {
    const weekCounters = weekStarts.map((weekStart) => adminStatsKeys.week(weekStart));
    const [[counters = {}, ...weeks], activity] = await Promise.all([
      readCounters([platformCounters, ...weekCounters]),
      documentClient().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': 'ACTIVITY' },
          ScanIndexForward: false,
          Limit: activityLimit,
        }),
      ),
    ]);
    return {
      counters,
      // A week nobody signed up or paid in has no shard at all, as it had no item before.
      weeks: weekStarts.flatMap((weekStart, i) => {
        const week = weeks[i] ?? {};
        if (Object.keys(week).length === 0) return [];
        return [{ weekStart, signUps: week['signUps'] ?? 0, paying: { starter: week['paying_starter'] ?? 0, pro: week['paying_pro'] ?? 0 } }];
      }),
      activity: (activity.Items ?? []).map((item) => platformActivity.parse({ kind: item['kind'], text: item['text'], at: item['at'] })),
    };
  },
});

/**
 * A one-off migration, never on a request path (`npm run backfill`): a table whose subscriptions predate the paid-up
 * counters (`subs_paying_<plan>`, which the MRR reads) gets them from the paid-up subscriptions themselves: one Query
 * of the `SUBSTATE#active` index, page after page, counted by plan, then set on the counters item only while it has
 * none, so a second run, or a table that always had them, changes nothing. Run it right after the deploy: an event
 * applied between the count and the set makes it leave the counters alone (the answer says so). Past weeks' trend
 * values are not rebuilt. Answers the counts it set, or undefined when it set none.
 */
export const backfillPayingCounters = async (): Promise<{ starter: number; pro: number } | undefined> => {
  const counts = { starter: 0, pro: 0 };
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': 'SUBSTATE#active' },
        ProjectionExpression: 'tier',
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      const tier: unknown = item['tier'];
      if (tier === 'starter' || tier === 'pro') counts[tier]++;
    }
    start = page.LastEvaluatedKey;
  } while (start);
  const set = await setCountersOnce({ subs_paying_starter: counts.starter, subs_paying_pro: counts.pro });
  return set ? counts : undefined;
};

/**
 * The migration of the trend weeks from before the shards (pk COUNTERS sk WEEK#...) into shard 0 of each week
 * (bin/backfill.ts): one Query of the old partition, each week moved in its own transaction, once. How many it moved.
 */
export const backfillWeekShards = async (): Promise<number> => {
  let moved = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :week)',
        ExpressionAttributeValues: { ':pk': 'COUNTERS', ':week': 'WEEK#' },
        ProjectionExpression: 'sk',
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      const weekStart = String(item['sk']).slice('WEEK#'.length);
      if (await moveToShard(adminStatsKeys.legacyWeek(weekStart), adminStatsKeys.week(weekStart).key(0), { remove: 'item', type: 'WeekCounters', keep: ['weekStart'] })) moved++;
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return moved;
};
