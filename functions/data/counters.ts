import type { Role } from '#contracts/common.ts';
import type { CounterDeltas } from '#core/ports.ts';
import { tableName } from '#data/table.ts';

/**
 * Platform counters (access pattern 18): one item read in O(1) by the admin stats; every change that they
 * count moves them in the same transaction.
 */
export const countersKey = { pk: 'COUNTERS', sk: 'PLATFORM' } as const;

/**
 * The transaction items that move the counters by `deltas` (none when nothing moves): the only way counters change.
 */
export const countersUpdate = (deltas: CounterDeltas) => {
  const names = Object.keys(deltas).filter((name) => deltas[name] !== 0);
  if (names.length === 0) return [];
  return [
    {
      Update: {
        TableName: tableName(),
        Key: countersKey,
        UpdateExpression: `ADD ${names.map((_, i) => `#c${i} :c${i}`).join(', ')} SET #type = :type`,
        ExpressionAttributeNames: { ...Object.fromEntries(names.map((n, i) => [`#c${i}`, n])), '#type': 'type' },
        ExpressionAttributeValues: { ...Object.fromEntries(names.map((n, i) => [`:c${i}`, deltas[n]])), ':type': 'Counters' },
      },
    },
  ];
};

/** One new user of a role. */
export const countNewUser = (role: Role) => countersUpdate({ usersTotal: 1, [`users_${role}`]: 1 });

/** A user moved from one role to another (the total stays): for the user management that changes roles. */
export const countRoleChange = (from: Role, to: Role) => (from === to ? [] : countersUpdate({ [`users_${from}`]: -1, [`users_${to}`]: 1 }));
