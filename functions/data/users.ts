import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { meResponse } from '#contracts/me.ts';
import { ConflictError } from '#core/errors.ts';
import type { User, UserRepository } from '#core/ports.ts';
import { signUpRecords } from '#data/admin-stats.ts';
import { auditPut } from '#data/audit.ts';
import { countersUpdate, countNewUser, countRoleChange } from '#data/counters.ts';
import { outboxPut } from '#data/outbox.ts';
import { batchGet, documentClient, indexPage, tableName, transact, writeIf } from '#data/table.ts';

/**
 * users (access patterns 1, 2, 3).
 * Profile:  pk USER#<id>      sk PROFILE   gsi1pk ROLE#<role>  gsi1sk <createdAt>#<id>  (users by role, newest first)
 * Email:    pk EMAIL#<email>  sk EMAIL     userId                                      (user by email, unique)
 */
export const userKeys = {
  profile: (id: string) => ({ pk: `USER#${id}`, sk: 'PROFILE' }),
  email: (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' }),
  byRole: (role: string, createdAt: string, id: string) => ({ gsi1pk: `ROLE#${role}`, gsi1sk: `${createdAt}#${id}` }),
};

/**
 * A stored profile is what GET /api/me answers, plus `disabled` once an admin turned the account off, and a creator's
 * `commentDigest` once they set it (validated on read; the keys and index fields are dropped).
 */
const profileItem = meResponse.extend({ disabled: z.boolean().optional(), deletingAt: z.string().optional(), commentDigest: z.boolean().optional() });

const emailItem = z.object({ userId: z.string() });

export const toUser = (item: unknown): User => profileItem.parse(item);

/**
 * A creator's daily digest of their learners' comments turned on or off (the profile's `commentDigest`; absent: on),
 * only on a profile that exists: false when there is none. Read by the digest where it reads the creator.
 */
export const setCommentDigest = (userId: string, on: boolean): Promise<boolean> =>
  writeIf(() =>
    documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: userKeys.profile(userId),
        UpdateExpression: 'SET commentDigest = :on',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':on': on },
      }),
    ),
  );

/** The account id behind an email: on its own, for a function that needs nothing else of the users (the unsubscribe). */
export const readUserIdByEmail = async (email: string): Promise<string | undefined> => {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: userKeys.email(email) }));
  return Item ? emailItem.parse(Item).userId : undefined;
};

/**
 * A profile by id (one GetItem): on its own, for the HTTP middleware's check of every caller's stored role and status
 * (functions/middleware/account.ts), which must not bring the rest of this module into every bundle.
 */
export const readUser = async (id: string): Promise<User | undefined> => {
  const { Item } = await documentClient().send(new GetCommand({ TableName: tableName(), Key: userKeys.profile(id) }));
  return Item ? toUser(Item) : undefined;
};

export const dynamoUsers = (): UserRepository => ({
  getUser: readUser,

  async getUsers(ids) {
    const unique = [...new Set(ids)];
    return unique.length === 0 ? [] : (await batchGet(unique.map(userKeys.profile))).map(toUser);
  },

  getUserIdByEmail: readUserIdByEmail,

  async createUser(user, options) {
    const table = tableName();
    const cancelled = await transact([
      {
        Put: {
          TableName: table,
          Item: { ...userKeys.profile(user.id), ...userKeys.byRole(user.role, user.createdAt, user.id), type: 'User', ...user },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: table,
          Item: { ...userKeys.email(user.email), type: 'UserEmail', userId: user.id },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      ...countNewUser(user.role, user.id),
      ...signUpRecords(user),
      ...(options?.welcome ? [outboxPut({ automation: 'welcome', userId: user.id, email: user.email, at: user.createdAt })] : []),
      ...(options?.audit ? [auditPut(options.audit)] : []),
    ]);
    if (cancelled) throw new ConflictError(`An account with ${user.email} already exists.`);
  },

  async listByRole(role, cursor, limit) {
    const page = await indexPage({
      index: 'gsi1',
      partition: userKeys.byRole(role, '', '').gsi1pk,
      cursor,
      limit,
      cursorKey: { sortPrefix: { name: 'sk', prefix: 'PROFILE' } },
    });
    return { items: page.items.map(toUser), nextCursor: page.nextCursor };
  },

  async changeRole(id, from, to, audit) {
    if (from === to) return;
    await transact([
      {
        Update: {
          TableName: tableName(),
          Key: userKeys.profile(id),
          UpdateExpression: 'SET #role = :to, gsi1pk = :index',
          ConditionExpression: 'attribute_exists(pk) AND #role = :from',
          ExpressionAttributeNames: { '#role': 'role' },
          ExpressionAttributeValues: { ':to': to, ':from': from, ':index': userKeys.byRole(to, '', '').gsi1pk },
        },
      },
      ...countRoleChange(from, to),
      ...(audit ? [auditPut(audit)] : []),
    ]);
  },

  async setDisabled(id, disabled, audit) {
    // The flag changes only from the other state (a missing flag is enabled), so the counter moves once per change.
    await transact([
      {
        Update: {
          TableName: tableName(),
          Key: userKeys.profile(id),
          UpdateExpression: 'SET disabled = :to',
          ConditionExpression: disabled
            ? 'attribute_exists(pk) AND (attribute_not_exists(disabled) OR disabled = :from)'
            : 'attribute_exists(pk) AND disabled = :from',
          ExpressionAttributeValues: { ':to': disabled, ':from': !disabled },
        },
      },
      ...countersUpdate({ users_disabled: disabled ? 1 : -1 }),
      ...(audit ? [auditPut(audit)] : []),
    ]);
  },
});
