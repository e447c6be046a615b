import type { Role } from '#contracts/common.ts';
import type { CounterDeltas } from '#core/ports.ts';
import { moveToShard, readCounter, shardedCounter, shardUpdate } from '#data/sharded-counters.ts';
import { tableName, transact } from '#data/table.ts';

/**
 * Platform counters (access pattern 18), sharded (data/sharded-counters.ts, docs/decisions/0035-no-hot-items.md):
 * Counters:  pk COUNTERS#<0..63>  sk PLATFORM   usersTotal, users_<role>, subs_*, courses_*, enrollments_*, emails_*,
 *                                              affiliate_*, commissions_*, ... (ADD, one shard per write)
 * Every change that they count moves one shard in the same transaction (the shard a hash of the writer's id picks, or a
 * random one); the admin stats read the 64 shards in one BatchGetItem and sum them. The item from before the shards
 * (pk COUNTERS sk PLATFORM) is moved into shard 0 by `npm run backfill` (backfillCounterShards).
 */
/** The item from before the shards: read with them until the migration has moved it into shard 0. */
export const legacyCountersKey = { pk: 'COUNTERS', sk: 'PLATFORM' };

/**
 * 64 shards, not 16: one paid order moves them up to three times (the buyer's new account, the enrolment, the
 * affiliate's sale), so a shard takes about 3 in 64 of a sale's orders' writes (~5%, and under 1 in 10 at the top of
 * chance's spread over 5,000 orders; at 32 the top shard would pass it). A read is still one BatchGetItem.
 */
export const PLATFORM_SHARDS = 64;

export const platformCounters = shardedCounter('COUNTERS', 'PLATFORM', { legacy: legacyCountersKey, shards: PLATFORM_SHARDS });

/**
 * The transaction items that move the counters by `deltas` (none when nothing moves): the only way counters change.
 * `by` (the id of what is counted: a user, an order) picks the shard; without it a random one.
 */
export const countersUpdate = (deltas: CounterDeltas, by?: string) => shardUpdate(platformCounters, deltas, { by, type: 'Counters' });

/** One new user of a role. */
export const countNewUser = (role: Role, by?: string) => countersUpdate({ usersTotal: 1, [`users_${role}`]: 1 }, by);

/** A user moved from one role to another (the total stays): for the user management that changes roles. */
export const countRoleChange = (from: Role, to: Role) => (from === to ? [] : countersUpdate({ [`users_${from}`]: -1, [`users_${to}`]: 1 }));

/** The platform counters: the sum of their shards (one BatchGetItem); `names` keeps the read to those. */
export const readPlatformCounters = (names?: string[], options: { consistent?: boolean } = {}): Promise<Record<string, number>> =>
  readCounter(platformCounters, { ...(names ? { attributes: names } : {}), ...options });

/**
 * A migration's counters, set only where none of them exists yet on any shard (a table from before they were counted),
 * so a second run changes nothing: one transaction of the set on shard 0 and a check of every other shard, so a write
 * to any shard meanwhile cancels it. Whether it set them.
 */
export const setCountersOnce = async (values: Record<string, number>): Promise<boolean> => {
  const names = Object.keys(values);
  const absent = names.map((_, i) => `attribute_not_exists(#n${i})`).join(' AND ');
  const nameMap = Object.fromEntries(names.map((name, i) => [`#n${i}`, name]));
  const [first, ...others] = platformCounters.keys();
  const cancelled = await transact([
    {
      Update: {
        TableName: tableName(),
        Key: first!,
        UpdateExpression: `SET ${names.map((_, i) => `#n${i} = :n${i}`).join(', ')}, #type = :type`,
        ConditionExpression: absent,
        ExpressionAttributeNames: { ...nameMap, '#type': 'type' },
        ExpressionAttributeValues: { ...Object.fromEntries(names.map((name, i) => [`:n${i}`, values[name]])), ':type': 'Counters' },
      },
    },
    ...others.map((key) => ({ ConditionCheck: { TableName: tableName(), Key: key, ConditionExpression: absent, ExpressionAttributeNames: nameMap } })),
  ]);
  return !cancelled;
};

/** The migration of the platform counters from before the shards into shard 0 (bin/backfill.ts): whether it moved them. */
export const backfillPlatformShards = (): Promise<boolean> => moveToShard(legacyCountersKey, platformCounters.key(0), { remove: 'item', type: 'Counters' });

