import type { Role } from '../contracts/common.ts';
import { tableName } from './table.ts';

/**
 * Platform counters (access pattern 18): one item read in O(1) by the admin stats; every change that they
 * count moves them in the same transaction.
 */
export const countersKey = { pk: 'COUNTERS', sk: 'PLATFORM' } as const;

/** The Update of a transaction that counts one new user of a role. */
export const countNewUser = (role: Role) => ({
  Update: {
    TableName: tableName(),
    Key: countersKey,
    UpdateExpression: 'ADD #total :one, #role :one SET #type = :type',
    ExpressionAttributeNames: { '#total': 'usersTotal', '#role': `users_${role}`, '#type': 'type' },
    ExpressionAttributeValues: { ':one': 1, ':type': 'Counters' },
  },
});
