import { beforeAll, describe, expect, it } from 'vitest';
import { ConflictError } from '#core/errors.ts';
import type { User } from '#core/ports.ts';
import { dynamoUsers, setCommentDigest, userKeys } from '#data/users.ts';
import { counters } from '../billing-support.ts';
import { useLocalCloudEnv } from '../support.ts';
import { putRaw, rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const newUser = (over: Partial<User> = {}): User => {
  const id = unique('user');
  return { id, email: `${id}@example.com`, role: 'learner', createdAt: '2026-11-21T12:00:00.000Z', ...over };
};

describe('the users table (DynamoDB Local)', () => {
  it('writes the profile, reserves the email and counts the user in one transaction', async () => {
    const users = dynamoUsers();
    const user = newUser();
    const before = await counters();
    await users.createUser(user);
    expect(await users.getUser(user.id)).toEqual(user);
    expect(await users.getUserIdByEmail(user.email.toUpperCase())).toBe(user.id);
    expect(await rawItem(userKeys.profile(user.id))).toMatchObject({ type: 'User', gsi1pk: 'ROLE#learner', gsi1sk: `${user.createdAt}#${user.id}` });
    const after = await counters();
    expect(after['usersTotal']! - (before['usersTotal'] ?? 0)).toBe(1);
    expect(after['users_learner']! - (before['users_learner'] ?? 0)).toBe(1);
  });

  it('refuses a taken id or a taken email (in any case), writing and counting nothing', async () => {
    const users = dynamoUsers();
    const user = newUser();
    await users.createUser(user);
    const before = await counters();
    await expect(users.createUser({ ...user, email: `other-${user.email}` })).rejects.toThrow(ConflictError);
    const stranger = newUser({ email: user.email.toUpperCase() });
    await expect(users.createUser(stranger)).rejects.toThrow(ConflictError);
    expect(await users.getUser(stranger.id)).toBeUndefined();
    expect(await users.getUserIdByEmail(`other-${user.email}`)).toBeUndefined();
    expect((await counters())['usersTotal']).toBe(before['usersTotal']);
  });

  it('turns an account off and on once each, moving users_disabled with the flag; a repeat or an unknown id changes nothing', async () => {
    const users = dynamoUsers();
    const user = newUser();
    await users.createUser(user);
    const disabledCount = async () => (await counters())['users_disabled'] ?? 0;
    const before = await disabledCount();

    await users.setDisabled(user.id, true);
    await users.setDisabled(user.id, true);
    expect(await users.getUser(user.id)).toEqual({ ...user, disabled: true });
    expect(await disabledCount()).toBe(before + 1);

    await users.setDisabled(user.id, false);
    await users.setDisabled(user.id, false);
    expect(await users.getUser(user.id)).toEqual({ ...user, disabled: false });
    expect(await disabledCount()).toBe(before);

    await users.setDisabled(unique('nobody'), true);
    expect(await disabledCount()).toBe(before);
    expect(await users.getUser(user.id)).toMatchObject({ disabled: false });
  });

  it('moves an account to another role with its role index and counters, once; a stale move changes nothing', async () => {
    const users = dynamoUsers();
    const user = newUser({ role: 'learner' });
    await users.createUser(user);
    const before = await counters();
    await users.changeRole(user.id, 'learner', 'leader');
    await users.changeRole(user.id, 'learner', 'leader');
    expect(await users.getUser(user.id)).toEqual({ ...user, role: 'leader' });
    expect(await rawItem(userKeys.profile(user.id))).toMatchObject({ gsi1pk: 'ROLE#leader', gsi1sk: `${user.createdAt}#${user.id}` });
    const after = await counters();
    expect((after['users_leader'] ?? 0) - (before['users_leader'] ?? 0)).toBe(1);
    expect((after['users_learner'] ?? 0) - (before['users_learner'] ?? 0)).toBe(-1);
    expect(after['usersTotal']).toBe(before['usersTotal']);
    await users.changeRole(unique('nobody'), 'learner', 'admin');
    expect((await counters())['users_admin']).toBe(after['users_admin']);
  });

  it('keeps a creator’s daily digest setting on the profile (absent: on); an unknown id is not written', async () => {
    const users = dynamoUsers();
    const user = newUser({ role: 'creator' });
    await users.createUser(user);
    expect((await users.getUser(user.id))?.commentDigest).toBeUndefined();
    expect(await setCommentDigest(user.id, false)).toBe(true);
    expect(await users.getUser(user.id)).toEqual({ ...user, commentDigest: false });
    expect(await setCommentDigest(user.id, true)).toBe(true);
    expect((await users.getUser(user.id))?.commentDigest).toBe(true);
    const ghost = unique('ghost');
    expect(await setCommentDigest(ghost, false)).toBe(false);
    expect(await rawItem(userKeys.profile(ghost))).toBeUndefined();
  });

  it('reads many profiles in one batch, leaving out unknown ids and repeats', async () => {
    const users = dynamoUsers();
    const [a, b] = [newUser(), newUser({ role: 'creator' })];
    await users.createUser(a);
    await users.createUser(b);
    const found = await users.getUsers([a.id, unique('nobody'), b.id, a.id]);
    expect(found.sort((x, y) => x.id.localeCompare(y.id))).toEqual([a, b].sort((x, y) => x.id.localeCompare(y.id)));
    expect(await users.getUsers([])).toEqual([]);
  });

  it('answers undefined for an unknown id or email', async () => {
    const users = dynamoUsers();
    expect(await users.getUser(unique('nobody'))).toBeUndefined();
    expect(await users.getUserIdByEmail(`${unique('nobody')}@example.com`)).toBeUndefined();
  });

  it('validates a profile on read: a malformed item is an error, not a user', async () => {
    const id = unique('broken');
    await putRaw({ ...userKeys.profile(id), type: 'User', id, email: 'not-an-email', role: 'creator', createdAt: '2026-11-21T12:00:00.000Z' });
    await expect(dynamoUsers().getUser(id)).rejects.toThrow();
  });

  it('pages the users of a role newest first, and refuses a cursor of another listing', async () => {
    const users = dynamoUsers();
    const role = 'admin' as const;
    const made = [newUser({ role, createdAt: '2999-01-01T00:00:01.000Z' }), newUser({ role, createdAt: '2999-01-01T00:00:02.000Z' })];
    for (const user of made) await users.createUser(user);
    const first = await users.listByRole(role, undefined, 1);
    expect(first.items).toEqual([made[1]]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await users.listByRole(role, first.nextCursor!, 1);
    expect(second.items).toEqual([made[0]]);
    await expect(users.listByRole('learner', first.nextCursor!, 1)).rejects.toThrow(/cursor is not valid/);
    await expect(users.listByRole(role, 'not-base64-json', 1)).rejects.toThrow(/cursor is not valid/);
  });
});
