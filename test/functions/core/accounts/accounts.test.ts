import { describe, expect, it } from 'vitest';
import { completeSignUp } from '#core/accounts/complete-sign-up.ts';
import { createAccount } from '#core/accounts/create-account.ts';
import { getMe } from '#core/accounts/get-me.ts';
import { ConflictError, NotFoundError } from '#core/errors.ts';
import { fixedClock, memoryDirectory, memoryUsers } from '#test/functions/fakes.ts';

const deps = () => ({ users: memoryUsers(), directory: memoryDirectory(), clock: fixedClock() });

describe('completing a sign-up', () => {
  it('writes a creator profile and puts the user in the creator group', async () => {
    const d = deps();
    const result = await completeSignUp(d, { source: 'PostConfirmation_ConfirmSignUp', userId: 'u1', username: 'u1-name', email: 'a@example.com' });
    expect(result).toEqual({ created: true });
    expect(await d.users.getUser('u1')).toEqual({ id: 'u1', email: 'a@example.com', role: 'creator', createdAt: '2026-11-21T12:00:00.000Z' });
    expect(d.directory.accounts.get('u1-name')?.groups).toEqual(['creator']);
  });

  it('changes nothing when the trigger comes from a confirmed password reset', async () => {
    const d = deps();
    const result = await completeSignUp(d, { source: 'PostConfirmation_ConfirmForgotPassword', userId: 'u1', username: 'u1', email: 'a@example.com' });
    expect(result).toEqual({ created: false });
    expect(d.users.all()).toEqual([]);
    expect(d.directory.accounts.size).toBe(0);
  });

  it('is a no-op on the profile when the trigger is delivered twice', async () => {
    const d = deps();
    const input = { source: 'PostConfirmation_ConfirmSignUp', userId: 'u1', username: 'u1', email: 'a@example.com' };
    await completeSignUp(d, input);
    expect(await completeSignUp(d, input)).toEqual({ created: false });
    expect(d.users.all()).toHaveLength(1);
    expect(d.directory.accounts.get('u1')?.groups).toEqual(['creator']);
  });
});

describe('creating an account for someone else', () => {
  it('creates the sign-in, the group and the profile with the role the caller chose', async () => {
    const d = deps();
    const user = await createAccount(d, { email: ' Leader@Example.com ', role: 'leader', password: 'Passw0rd!' });
    expect(user).toEqual({ id: 'sub-1', email: 'leader@example.com', role: 'leader', createdAt: '2026-11-21T12:00:00.000Z' });
    expect(d.directory.accounts.get('leader@example.com')).toMatchObject({ groups: ['leader'], password: 'Passw0rd!' });
  });

  it('refuses an email that already has an account, creating nothing', async () => {
    const d = deps();
    await createAccount(d, { email: 'a@example.com', role: 'learner' });
    await expect(createAccount(d, { email: 'A@example.com', role: 'admin' })).rejects.toThrow(ConflictError);
    expect(d.users.all()).toHaveLength(1);
    expect(d.directory.accounts.size).toBe(1);
  });
});

describe('reading my profile', () => {
  it('returns the stored profile', async () => {
    const users = memoryUsers([{ id: 'u1', email: 'a@example.com', role: 'admin', createdAt: '2026-01-01T00:00:00.000Z' }]);
    expect(await getMe({ users }, { userId: 'u1' })).toMatchObject({ email: 'a@example.com', role: 'admin' });
  });

  it('is NOT_FOUND when the profile is missing', async () => {
    await expect(getMe({ users: memoryUsers() }, { userId: 'nobody' })).rejects.toThrow(NotFoundError);
  });
});
