import { describe, expect, it } from 'vitest';
import { USERS_PAGE_SIZE } from '#contracts/admin-users.ts';
import { inviteUser, listUsers, updateUser } from '#core/admin/users.ts';
import { ConflictError, NotFoundError } from '#core/errors.ts';
import { APP_ORIGIN, fakeDeps } from '#test/functions/fakes/deps.ts';
import { memoryMailer } from '#test/functions/fakes/enrollments.ts';

/** The admin who acts in these tests (the audit log names them). */
const ADMIN = { id: 'admin-0', email: 'admin-0@example.com' };

const invite = () => {
  const d = fakeDeps();
  const mailer = memoryMailer();
  return { d, mailer, deps: { ...d, mailer, temporaryPassword: () => 'Temp0rary!Passw0rd' } };
};

describe('user management', () => {
  it('creates the account in its role group with a temporary password, writes the profile, and emails the invitation', async () => {
    const { d, mailer, deps } = invite();
    const user = await inviteUser(deps, { actor: ADMIN, body: { email: 'lee@example.com', role: 'leader' } });
    expect(user).toEqual({ id: expect.any(String), email: 'lee@example.com', role: 'leader', createdAt: '2026-11-21T12:00:00.000Z', disabled: false });
    expect(d.directory.accounts.get('lee@example.com')).toMatchObject({ temporaryPassword: 'Temp0rary!Passw0rd' });
    expect([...d.directory.accounts.values()].some((a) => a.groups.includes('leader'))).toBe(true);
    expect(await d.users.getUser(user.id)).toEqual({ id: user.id, email: user.email, role: user.role, createdAt: user.createdAt });
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]).toMatchObject({ to: 'lee@example.com', subject: 'Your Course Platform account is ready' });
    expect(mailer.sent[0]!.text).toContain('as a group leader');
    expect(mailer.sent[0]!.text).toContain('Temporary password: Temp0rary!Passw0rd');
    expect(mailer.sent[0]!.html).toContain(`${APP_ORIGIN}/auth/login`);
  });

  it('refuses an email that already has an account and sends nothing', async () => {
    const { mailer, deps } = invite();
    await expect(inviteUser(deps, { actor: ADMIN, body: { email: 'creator@example.com', role: 'admin' } })).rejects.toBeInstanceOf(ConflictError);
    expect(mailer.sent).toHaveLength(0);
  });

  it('lists one role newest first, a page at a time', async () => {
    const { d, deps } = invite();
    for (let i = 0; i < USERS_PAGE_SIZE + 2; i++) {
      await d.users.createUser({ id: `l${i}`, email: `l${i}@example.com`, role: 'learner', createdAt: `2026-11-${String(1 + (i % 28)).padStart(2, '0')}T0${i % 10}:00:00.000Z` });
    }
    const first = await listUsers(deps, 'learner', undefined);
    expect(first.items).toHaveLength(USERS_PAGE_SIZE);
    expect(first.items.map((u) => u.createdAt)).toEqual(first.items.map((u) => u.createdAt).sort().reverse());
    const second = await listUsers(deps, 'learner', first.nextCursor!);
    expect(second).toMatchObject({ nextCursor: null });
    expect(second.items).toHaveLength(2);
    expect((await listUsers(deps, 'admin', undefined)).items).toEqual([]);
  });

  it('disables an account at the sign-in provider and on its profile, counts it once, and enables it again', async () => {
    const { d, deps } = invite();
    const lee = await inviteUser(deps, { actor: ADMIN, body: { email: 'lee@example.com', role: 'leader' } });
    const account = () => d.directory.accounts.get('lee@example.com')!;
    const input = { actor: { id: 'admin-1', email: 'admin-1@example.com' }, userId: lee.id };
    const set = (disabled: boolean) => updateUser(d, { ...input, changes: { disabled } });

    expect(await set(true)).toEqual({ ...lee, disabled: true });
    expect(account()).toMatchObject({ enabled: false, signedOut: 1 });
    expect(await d.users.getUser(lee.id)).toMatchObject({ disabled: true });
    await set(true);
    expect(d.users.counters).toMatchObject({ users_disabled: 1, users_leader: 1 });
    expect((await listUsers(d, 'leader', undefined)).items).toEqual([{ ...lee, disabled: true }]);

    expect(await set(false)).toEqual(lee);
    expect(account()).toMatchObject({ enabled: true });
    expect(d.users.counters).toMatchObject({ users_disabled: 0, users_leader: 1, usersTotal: 2 });
  });

  it('refuses to disable the calling admin or an unknown id, and changes nothing', async () => {
    const { d, deps } = invite();
    const admin = await inviteUser(deps, { actor: ADMIN, body: { email: 'root@example.com', role: 'admin' } });
    await expect(updateUser(d, { actor: { id: admin.id, email: admin.email }, userId: admin.id, changes: { disabled: true } })).rejects.toThrow(
      new ConflictError('You cannot disable your own account.'),
    );
    await expect(updateUser(d, { actor: { id: admin.id, email: admin.email }, userId: 'nobody', changes: { disabled: true } })).rejects.toBeInstanceOf(NotFoundError);
    expect(d.directory.accounts.get('root@example.com')?.enabled).toBeUndefined();
    expect(d.users.counters['users_disabled']).toBeUndefined();
    expect(await updateUser(d, { actor: { id: admin.id, email: admin.email }, userId: admin.id, changes: { disabled: false } })).toMatchObject({ disabled: false });
  });

  it('moves an account to another role: its group, profile, role list and counters, and signs it out', async () => {
    const { d, deps } = invite();
    const lee = await inviteUser(deps, { actor: ADMIN, body: { email: 'lee@example.com', role: 'learner' } });
    const before = { ...d.users.counters };
    const moved = await updateUser(d, { actor: { id: 'admin-1', email: 'admin-1@example.com' }, userId: lee.id, changes: { role: 'leader' } });
    expect(moved).toEqual({ ...lee, role: 'leader' });
    expect(d.directory.accounts.get('lee@example.com')).toMatchObject({ groups: ['leader'], signedOut: 1 });
    expect((await listUsers(d, 'leader', undefined)).items).toEqual([moved]);
    expect((await listUsers(d, 'learner', undefined)).items).toEqual([]);
    expect(d.users.counters).toMatchObject({ users_learner: before['users_learner']! - 1, users_leader: 1, usersTotal: before['usersTotal'] });

    // The same role again changes nothing; a role and a switch in one request do both.
    await updateUser(d, { actor: { id: 'admin-1', email: 'admin-1@example.com' }, userId: lee.id, changes: { role: 'leader' } });
    expect(d.directory.accounts.get('lee@example.com')?.signedOut).toBe(1);
    expect(await updateUser(d, { actor: { id: 'admin-1', email: 'admin-1@example.com' }, userId: lee.id, changes: { role: 'admin', disabled: true } })).toEqual({ ...lee, role: 'admin', disabled: true });
    expect(d.users.counters).toMatchObject({ users_leader: 0, users_admin: 1, users_disabled: 1 });
  });

  it("keeps a creator's role, and one's own, with the reason", async () => {
    const { d, deps } = invite();
    const admin = await inviteUser(deps, { actor: ADMIN, body: { email: 'root@example.com', role: 'admin' } });
    await expect(updateUser(d, { actor: { id: admin.id, email: admin.email }, userId: admin.id, changes: { role: 'learner' } })).rejects.toThrow(
      new ConflictError('You cannot change your own role.'),
    );
    const creatorId = (await d.users.getUserIdByEmail('creator@example.com'))!;
    await expect(updateUser(d, { actor: { id: admin.id, email: admin.email }, userId: creatorId, changes: { role: 'leader' } })).rejects.toThrow(/creator's role cannot be changed/);
    expect((await d.users.getUser(creatorId))?.role).toBe('creator');
    expect((await d.users.getUser(admin.id))?.role).toBe('admin');
  });
});
