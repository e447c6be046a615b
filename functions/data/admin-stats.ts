import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { platformActivity, type PlatformActivity } from '#contracts/admin.ts';
import type { CounterDeltas, StoredSubscription, User } from '#core/ports.ts';
import { signUpActivity, subscriptionActivity } from '#core/admin/platform-activity.ts';
import { weekStartOf } from '#core/admin/platform-figures.ts';
import { ACTIVITY_DAYS, type PlatformStatsReader } from '#core/admin/platform-stats.ts';
import { countersKey, setCountersOnce } from '#data/counters.ts';
import { addUpdate, documentClient, nonZero, tableName } from '#data/table.ts';

/**
 * The admin's trend weeks and recent activity (access pattern 18, with the platform counters of counters.ts). Both are
 * written in the same transaction as the change they record (a sign-up, a subscription event), so they can never
 * disagree with the counters, and a redelivered event that is refused as a duplicate writes neither.
 * Week:      pk COUNTERS  sk WEEK#<monday YYYY-MM-DD>  signUps, paying_<plan> (net change of paid-up subscriptions that week)
 * Activity:  pk ACTIVITY  sk <at>#<id>                 kind, text, at, expiresAt (TTL 30 days)
 */
export const adminStatsKeys = {
  week: (weekStart: string) => ({ pk: countersKey.pk, sk: `WEEK#${weekStart}` }),
  activity: (at: string, id: string) => ({ pk: 'ACTIVITY', sk: `${at}#${id}` }),
};

const ACTIVITY_TTL_SECONDS = ACTIVITY_DAYS * 24 * 60 * 60;

/** Adds `deltas` to the week's counters (none when nothing moves). */
const weekUpdate = (weekStart: string, deltas: CounterDeltas) => {
  const moved = nonZero(deltas);
  return Object.keys(moved).length === 0 ? [] : [addUpdate(adminStatsKeys.week(weekStart), moved, { type: 'WeekCounters', set: { weekStart } })];
};

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
export const signUpRecords = (user: User) => [...weekUpdate(weekStartOf(user.createdAt), { signUps: 1 }), activityPut(signUpActivity(user), user.id)];

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

const countersItem = z.record(z.string(), z.unknown()).transform((item) =>
  Object.fromEntries(Object.entries(item).filter((entry): entry is [string, number] => typeof entry[1] === 'number')),
);
const weekItem = z.object({
  weekStart: z.iso.date(),
  signUps: z.number().optional(),
  paying_starter: z.number().optional(),
  paying_pro: z.number().optional(),
});

export const dynamoAdminStats = (): PlatformStatsReader => ({
  async read({ weekStarts, activityLimit }) {
    const table = tableName();
    const [first, last] = [weekStarts[0] ?? '', weekStarts.at(-1) ?? ''];
    const [counters, weeks, activity] = await Promise.all([
      documentClient().send(new GetCommand({ TableName: table, Key: countersKey })),
      documentClient().send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
          ExpressionAttributeValues: { ':pk': countersKey.pk, ':first': adminStatsKeys.week(first).sk, ':last': adminStatsKeys.week(last).sk },
        }),
      ),
      documentClient().send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': 'ACTIVITY' },
          ScanIndexForward: false,
          Limit: activityLimit,
        }),
      ),
    ]);
    return {
      counters: countersItem.parse(counters.Item ?? {}),
      weeks: (weeks.Items ?? []).map((item) => {
        const week = weekItem.parse(item);
        return { weekStart: week.weekStart, signUps: week.signUps ?? 0, paying: { starter: week.paying_starter ?? 0, pro: week.paying_pro ?? 0 } };
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
