import type { Role } from '#contracts/common.ts';
import type { CounterDeltas } from '#core/ports.ts';
import { addUpdate, nonZero } from '#data/table.ts';

/**
 * Platform counters (access pattern 18): one item read in O(1) by the admin stats; every change that they
 * count moves them in the same transaction.
 */
export const countersKey = { pk: 'COUNTERS', sk: 'PLATFORM' } as const;

/**
 * The transaction items that move the counters by `deltas` (none when nothing moves): the only way counters change.
 */
export const countersUpdate = (deltas: CounterDeltas) => {
  const moved = nonZero(deltas);
  return Object.keys(moved).length === 0 ? [] : [addUpdate(countersKey, moved, { type: 'Counters' })];
};

/** One new user of a role. */
export const countNewUser = (role: Role) => countersUpdate({ usersTotal: 1, [`users_${role}`]: 1 });

/** A user moved from one role to another (the total stays): for the user management that changes roles. */
export const countRoleChange = (from: Role, to: Role) => (from === to ? [] : countersUpdate({ [`users_${from}`]: -1, [`users_${to}`]: 1 }));
