import { describe, expect, it } from 'vitest';
import { accountOrInvite, createAccount, normaliseEmail } from '#core/accounts/create-account.ts';
import { ConflictError } from '#core/errors.ts';
import { testClock } from '#test/functions/fakes/clock.ts';
import { memoryDirectory, memoryUsers } from '#test/functions/fakes/users.ts';

const deps = () => ({ users: memoryUsers(), directory: memoryDirectory(), clock: testClock() });

describe('creating an account for someone else', () => {
  it('creates the sign-in, the group and the profile with the role the caller chose', async () => {
    const d = deps();
    const user = await createAccount(d, { email: ' Leader@Example.com ', role: 'leader', password: 'Passw0rd!' });
    expect(user).toEqual({ id: 'sub-1', email: 'leader@example.com', role: 'leader', createdAt: '2026-11-21T12:00:00.000Z' });
    expect(d.directory.accounts.get('leader@example.com')).toEqual({ id: 'sub-1', groups: ['leader'], password: 'Passw0rd!' });
    expect(await d.users.getUser('sub-1')).toEqual(user);
    expect(d.users.counters).toEqual({ usersTotal: 1, users_leader: 1 });
  });

  it('gives an invited user only the temporary password the caller chose', async () => {
    const d = deps();
    await createAccount(d, { email: 'learner@example.com', role: 'learner', temporaryPassword: 'Temp0rary!' });
    expect(d.directory.accounts.get('learner@example.com')).toEqual({ id: 'sub-1', groups: ['learner'], temporaryPassword: 'Temp0rary!' });
  });

  it('refuses an email that already has an account (in any case), creating nothing', async () => {
    const d = deps();
    await createAccount(d, { email: 'a@example.com', role: 'learner' });
    await expect(createAccount(d, { email: 'A@example.com', role: 'admin' })).rejects.toThrow(ConflictError);
    expect(d.users.all()).toHaveLength(1);
    expect(d.directory.accounts.size).toBe(1);
    expect(d.directory.accounts.get('a@example.com')?.groups).toEqual(['learner']);
  });

  it('passes on a sign-in the provider already holds as a conflict, writing no profile', async () => {
    const d = deps();
    await d.directory.createAccount({ email: 'orphan@example.com' });
    await expect(createAccount(d, { email: 'orphan@example.com', role: 'learner' })).rejects.toThrow(ConflictError);
    expect(d.users.all()).toEqual([]);
  });

  it('an invitation whose mail or profile failed is finished by the next try, with a new temporary password that works', async () => {
    const d = deps();
    const sent: { to: string; subject: string; text: string }[] = [];
    let mailFails = true;
    const mailer = {
      send: async (m: { to: string; subject: string; text: string }) => {
        if (mailFails) throw new Error('SES throttled');
        sent.push(m);
      },
    };
    const passwords = ['Temp-1!', 'Temp-2!', 'Temp-3!'];
    const invite = () =>
      accountOrInvite(
        { ...d, mailer, temporaryPassword: () => passwords.shift()! },
        { email: 'new@example.com', role: 'learner', invitation: (temporaryPassword) => ({ subject: 'Welcome', text: temporaryPassword, html: temporaryPassword }) },
      );
    await expect(invite()).rejects.toThrow('SES throttled');
    expect(d.users.all()).toEqual([]);
    mailFails = false;
    // The profile write fails after the mail went: the next try sends another invitation, whose password is the one set.
    d.users.before('createUser', (call) => {
      if (call === 1) throw new Error('database unavailable');
    });
    await expect(invite()).rejects.toThrow('database unavailable');
    const { user, invited } = (await invite())!;
    expect(invited).toBe(true);
    expect(await d.users.getUser(user.id)).toMatchObject({ email: 'new@example.com', role: 'learner' });
    expect(sent.map((m) => m.text)).toEqual(['Temp-2!', 'Temp-3!']);
    expect(d.directory.accounts.get('new@example.com')).toMatchObject({ id: 'sub-1', temporaryPassword: 'Temp-3!', groups: ['learner'] });
    expect(d.directory.accounts.size).toBe(1);
  });

  it('trims and lower-cases emails', () => {
    expect(normaliseEmail('  Mixed.Case@Example.COM ')).toBe('mixed.case@example.com');
  });
});
