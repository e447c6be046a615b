import { InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { describe, expect, it } from 'vitest';
import type { AdminStats } from '#contracts/admin.ts';
import type { AdminUser, AdminUserList } from '#contracts/admin-users.ts';
import { ACCOUNT_CACHE_MS } from '#middleware/account.ts';
import { accountWithRole, api, cognito, outputs, signIn, uniqueEmail } from './support.ts';

/** User management end to end: the gateway, the handlers, cognito-local, DynamoDB Local and SES local. */
interface StoredMail {
  subject: string;
  destination: { to: string[] };
  body: { text?: string };
}

const mailsTo = async (to: string): Promise<StoredMail[]> => {
  const { emails } = (await (await fetch(`${outputs().SesEndpoint}/store`)).json()) as { emails: StoredMail[] };
  return emails.filter((m) => m.destination.to.includes(to));
};

describe('user management', () => {
  it('creates a group leader with an invitation, lists them first among leaders, and refuses the same email again', async () => {
    const admin = await accountWithRole('admin', 'users-admin');
    const email = uniqueEmail('Invited-Leader');
    const created = await api('POST', '/api/admin/users', { token: admin.token, body: { email, role: 'leader' } });
    expect(created.status).toBe(201);
    const leader = created.body as AdminUser;
    expect(leader).toEqual({ id: expect.any(String), email: email.toLowerCase(), role: 'leader', createdAt: expect.any(String), disabled: false });

    const page = (await api('GET', '/api/admin/users?role=leader', { token: admin.token })).body as AdminUserList;
    expect(page.items[0]).toEqual(leader);

    const [invitation] = await mailsTo(email.toLowerCase());
    expect(invitation?.subject).toBe('Your Course Platform account is ready');
    expect(invitation?.body.text).toContain('an account was created for you as a group leader');
    expect(invitation?.body.text).toMatch(/Temporary password: \S{16,}/);

    const again = await api('POST', '/api/admin/users', { token: admin.token, body: { email, role: 'learner' } });
    expect(again.status).toBe(409);
    expect((await mailsTo(email.toLowerCase())).length).toBe(1);
  });

  it('pages a role newest first with a cursor, and refuses a cursor it did not hand out', async () => {
    const admin = await accountWithRole('admin', 'users-pages');
    const first = (await api('GET', '/api/admin/users?role=learner', { token: admin.token })).body as AdminUserList;
    expect(first.items.length).toBeGreaterThan(0);
    expect(first.items.every((u) => u.role === 'learner')).toBe(true);
    const dates = first.items.map((u) => u.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
    if (first.nextCursor) {
      const second = (await api('GET', `/api/admin/users?role=learner&cursor=${first.nextCursor}`, { token: admin.token })).body as AdminUserList;
      expect(second.items.some((u) => first.items.some((f) => f.id === u.id))).toBe(false);
    }
    const forged = Buffer.from(JSON.stringify({ pk: 'USER#x', sk: 'PROFILE', gsi1pk: 'ROLE#admin', gsi1sk: 'z' })).toString('base64url');
    expect((await api('GET', `/api/admin/users?role=learner&cursor=${forged}`, { token: admin.token })).status).toBe(400);
    expect((await api('GET', '/api/admin/users?role=owner', { token: admin.token })).status).toBe(400);
    const creators = (await api('GET', '/api/admin/users', { token: admin.token })).body as AdminUserList;
    expect(creators.items.every((u) => u.role === 'creator')).toBe(true);
  });

  it('refuses a bad email or role with the fields named, and any caller who is not an admin', async () => {
    const admin = await accountWithRole('admin', 'users-bad');
    const bad = await api('POST', '/api/admin/users', { token: admin.token, body: { email: 'not-an-email', role: 'owner' } });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/email/);
    expect(JSON.stringify(bad.body)).toMatch(/role/);
    const creator = await accountWithRole('creator', 'users-creator');
    expect((await api('GET', '/api/admin/users', { token: creator.token })).status).toBe(403);
    expect((await api('POST', '/api/admin/users', { token: creator.token, body: { email: uniqueEmail('x'), role: 'admin' } })).status).toBe(403);
  });

  it('disables an account so it can neither sign in nor refresh, keeps the counts right, and enables it again', async () => {
    const admin = await accountWithRole('admin', 'users-disable-admin');
    const creator = await accountWithRole('creator', 'users-disabled');
    const auth = (parameters: Record<string, string>, flow: 'USER_PASSWORD_AUTH' | 'REFRESH_TOKEN_AUTH') =>
      cognito().send(new InitiateAuthCommand({ ClientId: outputs().UserPoolClientId, AuthFlow: flow, AuthParameters: parameters }));
    const session = await auth({ USERNAME: creator.email, PASSWORD: creator.password }, 'USER_PASSWORD_AUTH');
    const refreshToken = session.AuthenticationResult!.RefreshToken!;
    const users = async () => ((await api('GET', '/api/admin/stats', { token: admin.token })).body as AdminStats).users;
    const before = await users();

    const off = await api('PATCH', `/api/admin/users/${creator.id}`, { token: admin.token, body: { disabled: true } });
    expect(off).toEqual({ status: 200, body: { id: creator.id, email: creator.email, role: 'creator', createdAt: creator.createdAt, disabled: true } });
    await expect(signIn(creator.email, creator.password)).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'User is disabled.' });
    await expect(signIn(creator.email, 'Wr0ngPassword')).rejects.toMatchObject({ message: 'Incorrect username or password.' });
    await expect(auth({ REFRESH_TOKEN: refreshToken }, 'REFRESH_TOKEN_AUTH')).rejects.toMatchObject({ message: 'User is disabled.' });
    expect(await users()).toEqual({ ...before, disabled: before.disabled + 1 });
    const listed = ((await api('GET', '/api/admin/users?role=creator', { token: admin.token })).body as AdminUserList).items;
    expect(listed.find((u) => u.id === creator.id)).toMatchObject({ disabled: true });
    // Again: the same answer, counted once.
    expect((await api('PATCH', `/api/admin/users/${creator.id}`, { token: admin.token, body: { disabled: true } })).status).toBe(200);
    expect((await users()).disabled).toBe(before.disabled + 1);

    const on = await api('PATCH', `/api/admin/users/${creator.id}`, { token: admin.token, body: { disabled: false } });
    expect(on).toMatchObject({ status: 200, body: { disabled: false } });
    expect(await signIn(creator.email, creator.password)).toEqual(expect.any(String));
    expect(await users()).toEqual(before);
  });

  it("moves a learner to group leader: the next sign-in carries the new role, the counts follow, a creator's role stays", async () => {
    const admin = await accountWithRole('admin', 'users-role-admin');
    const learner = await accountWithRole('learner', 'users-role-learner');
    const creator = await accountWithRole('creator', 'users-role-creator');
    const before = ((await api('GET', '/api/admin/stats', { token: admin.token })).body as AdminStats).users;

    const moved = await api('PATCH', `/api/admin/users/${learner.id}`, { token: admin.token, body: { role: 'leader' } });
    expect(moved).toMatchObject({ status: 200, body: { id: learner.id, role: 'leader', disabled: false } });
    const token = await signIn(learner.email, learner.password);
    expect((await api('GET', '/api/me', { token })).body).toMatchObject({ role: 'leader' });
    expect((await api('GET', '/api/admin/users', { token })).status).toBe(403);
    const leaders = ((await api('GET', '/api/admin/users?role=leader', { token: admin.token })).body as AdminUserList).items;
    expect(leaders[0]).toMatchObject({ id: learner.id, role: 'leader' });
    const after = ((await api('GET', '/api/admin/stats', { token: admin.token })).body as AdminStats).users;
    expect(after).toEqual({ ...before, learners: before.learners - 1, leaders: before.leaders + 1 });

    const creatorMove = await api('PATCH', `/api/admin/users/${creator.id}`, { token: admin.token, body: { role: 'leader' } });
    expect(creatorMove).toMatchObject({ status: 409, body: { error: { code: 'CONFLICT' } } });
    expect((await api('PATCH', `/api/admin/users/${learner.id}`, { token: admin.token, body: { role: 'creator' } })).status).toBe(400);
    expect((await api('PATCH', `/api/admin/users/${learner.id}`, { token: admin.token, body: {} })).status).toBe(400);
    expect((await api('PATCH', `/api/admin/users/${admin.id}`, { token: admin.token, body: { role: 'learner' } })).status).toBe(409);
  });

  it("refuses a disabled account's next call with its still-valid token (403 ACCOUNT_DISABLED), once its remembered profile is older than the cache window", async () => {
    const admin = await accountWithRole('admin', 'users-live-disable-admin');
    const creator = await accountWithRole('creator', 'users-live-disabled');
    expect((await api('GET', '/api/courses', { token: creator.token })).status).toBe(200);
    expect((await api('PATCH', `/api/admin/users/${creator.id}`, { token: admin.token, body: { disabled: true } })).status).toBe(200);
    // Each function instance remembers a caller's profile for ACCOUNT_CACHE_MS (docs/api.md): after that, refused.
    await new Promise((resolve) => setTimeout(resolve, ACCOUNT_CACHE_MS + 100));
    for (const path of ['/api/courses', '/api/me']) {
      const refused = await api('GET', path, { token: creator.token });
      expect(refused).toMatchObject({ status: 403, body: { error: { code: 'ACCOUNT_DISABLED', message: expect.stringContaining('disabled') } } });
    }
  });

  it("refuses a demoted admin's token on the admin routes at its next call, and lets it through as its new role", async () => {
    const admin = await accountWithRole('admin', 'users-live-role-admin');
    const demoted = await accountWithRole('admin', 'users-live-demoted');
    expect((await api('PATCH', `/api/admin/users/${demoted.id}`, { token: admin.token, body: { role: 'learner' } })).status).toBe(200);
    // Its token still says admin (valid up to an hour), but the stored role is learner now.
    const refused = await api('GET', '/api/admin/users', { token: demoted.token });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN', message: expect.stringContaining('sign in again') } } });
    expect((await api('PATCH', `/api/admin/users/${admin.id}`, { token: demoted.token, body: { disabled: true } })).status).toBe(403);
    expect((await api('GET', '/api/me', { token: demoted.token })).body).toMatchObject({ role: 'learner' });
  });

  it('refuses disabling oneself (409), an unknown id (404), a bad body (400) and any caller who is not an admin (403)', async () => {
    const admin = await accountWithRole('admin', 'users-self');
    const self = await api('PATCH', `/api/admin/users/${admin.id}`, { token: admin.token, body: { disabled: true } });
    expect(self).toMatchObject({ status: 409, body: { error: { code: 'CONFLICT', message: 'You cannot disable your own account.' } } });
    expect(await signIn(admin.email, admin.password)).toEqual(expect.any(String));
    expect((await api('PATCH', '/api/admin/users/no-such-user', { token: admin.token, body: { disabled: true } })).status).toBe(404);
    const creator = await accountWithRole('creator', 'users-patch-creator');
    const bad = await api('PATCH', `/api/admin/users/${creator.id}`, { token: admin.token, body: { disabled: 'yes', role: 'admin' } });
    expect(bad.status).toBe(400);
    expect((await api('PATCH', `/api/admin/users/${admin.id}`, { token: creator.token, body: { disabled: true } })).status).toBe(403);
    expect(await signIn(admin.email, admin.password)).toEqual(expect.any(String));
  });
});
