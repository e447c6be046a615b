import type { Role } from '#contracts/common.ts';
import type { CounterDeltas } from '#core/ports.ts';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { addUpdate, documentClient, nonZero, tableName, writeIf } from '#data/table.ts';

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

/**
 * A migration's counters, set only where none of them exists yet (a table from before they were counted), so a second
 * run changes nothing: whether it set them.
 */
export const setCountersOnce = async (values: Record<string, number>): Promise<boolean> => {
  const names = Object.keys(values);
  return writeIf(() =>
    documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: countersKey,
        UpdateExpression: `SET ${names.map((name) => `${name} = :${name}`).join(', ')}, #type = :type`,
        ConditionExpression: names.map((name) => `attribute_not_exists(${name})`).join(' AND '),
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ...Object.fromEntries(names.map((name) => [`:${name}`, values[name]])), ':type': 'Counters' },
      }),
    ),
  );
};
