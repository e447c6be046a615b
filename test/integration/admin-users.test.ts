import { describe, expect, it } from 'vitest';
import type { AdminUser, AdminUserList } from '#contracts/admin-users.ts';
import { accountWithRole, api, outputs, uniqueEmail } from './support.ts';

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
    expect(leader).toEqual({ id: expect.any(String), email: email.toLowerCase(), role: 'leader', createdAt: expect.any(String) });

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
});
