import { describe, expect, it } from 'vitest';
import { AUDIT_PAGE_SIZE } from '#contracts/audit.ts';
import { listAudit } from '#core/admin/audit.ts';
import type { AuditLine, AuditLog } from '#core/audit-line.ts';
import { inviteUser, updateUser } from '#core/admin/users.ts';
import { fakeDeps } from '#test/functions/fakes/deps.ts';
import { memoryMailer } from '#test/functions/fakes/enrollments.ts';

const ADMIN = { id: 'admin-0', email: 'root@example.com' };

const world = () => {
  const d = fakeDeps();
  return { d, deps: { ...d, mailer: memoryMailer(), temporaryPassword: () => 'Temp0rary!Passw0rd' } };
};

describe('the audit log of user management', () => {
  it('records an account an admin created, with the admin, the account and its role', async () => {
    const { d, deps } = world();
    const lee = await inviteUser(deps, { actor: ADMIN, body: { email: 'lee@example.com', role: 'leader' } });
    expect(d.users.audit).toEqual([
      { id: expect.any(String), at: lee.createdAt, actor: ADMIN, action: 'account-created', target: { kind: 'user', id: lee.id, email: 'lee@example.com' }, details: { role: 'leader' } },
    ]);
  });

  it('records each disable, enable and role change once, and nothing for a change that changes nothing', async () => {
    const { d, deps } = world();
    const lee = await inviteUser(deps, { actor: ADMIN, body: { email: 'lee@example.com', role: 'learner' } });
    const change = (changes: Parameters<typeof updateUser>[1]['changes']) => updateUser(d, { actor: ADMIN, userId: lee.id, changes });
    await change({ disabled: true });
    await change({ disabled: true });
    await change({ disabled: false });
    await change({ role: 'leader' });
    await change({ role: 'leader' });
    const target = { kind: 'user', id: lee.id, email: 'lee@example.com' };
    expect(d.users.audit.slice(1).map(({ action, actor, target, details }) => ({ action, actor, target, details }))).toEqual([
      { action: 'account-disabled', actor: ADMIN, target, details: undefined },
      { action: 'account-enabled', actor: ADMIN, target, details: undefined },
      { action: 'role-changed', actor: ADMIN, target, details: { from: 'learner', to: 'leader' } },
    ]);
  });

  it('records nothing for a change that was refused, nor when the sign-in provider fails first', async () => {
    const { d, deps } = world();
    const lee = await inviteUser(deps, { actor: ADMIN, body: { email: 'lee@example.com', role: 'learner' } });
    const creatorId = (await d.users.getUserIdByEmail('creator@example.com'))!;
    await expect(updateUser(d, { actor: ADMIN, userId: creatorId, changes: { role: 'leader' } })).rejects.toThrow();
    await expect(updateUser(d, { actor: { id: lee.id, email: lee.email }, userId: lee.id, changes: { disabled: true } })).rejects.toThrow();
    d.directory.before('setSignInEnabled', () => {
      throw new Error('Cognito is down');
    });
    await expect(updateUser(d, { actor: ADMIN, userId: lee.id, changes: { disabled: true } })).rejects.toThrow('Cognito is down');
    expect(d.users.audit.map((l) => l.action)).toEqual(['account-created']);
  });
});

describe('GET /api/admin/audit', () => {
  it('answers a page of the log as stored, without its storage ids, and passes the filter and cursor on', async () => {
    const line: AuditLine = { id: 'l1', at: '2026-11-21T12:00:00.000Z', actor: ADMIN, action: 'account-disabled', target: { kind: 'user', id: 'u1', email: 'u1@example.com' } };
    const asked: Parameters<AuditLog['page']>[0][] = [];
    const audit: AuditLog = {
      page: async (input) => {
        asked.push(input);
        return { items: [line], nextCursor: 'next' };
      },
    };
    const page = await listAudit({ audit }, { action: 'account-disabled', cursor: 'c1' });
    expect(page).toEqual({ items: [{ at: line.at, actor: ADMIN, action: 'account-disabled', target: line.target }], nextCursor: 'next' });
    expect(asked).toEqual([{ action: 'account-disabled', cursor: 'c1', limit: AUDIT_PAGE_SIZE }]);
  });
});
