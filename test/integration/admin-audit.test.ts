import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { AUDIT_RETENTION_DAYS, type AuditPage } from '#contracts/audit.ts';
import { auditKeys } from '#data/audit.ts';
import { accountWithRole, api, dynamo, outputs, uniqueEmail } from './support.ts';

/** The admin audit log end to end (issue 37 point 3): the gateway, the handlers, cognito-local and DynamoDB Local. */

const auditPage = async (token: string, query = '') => {
  const res = await api('GET', `/api/admin/audit${query}`, { token });
  expect(res.status).toBe(200);
  return res.body as AuditPage;
};

describe('the admin audit log', () => {
  it("shows an admin's disabling of another account with the admin and the account, newest first and by action", async () => {
    const admin = await accountWithRole('admin', 'audit-admin');
    const learner = await accountWithRole('learner', 'audit-learner');
    const before = Date.now();
    expect((await api('PATCH', `/api/admin/users/${learner.id}`, { token: admin.token, body: { disabled: true } })).status).toBe(200);
    expect((await api('PATCH', `/api/admin/users/${learner.id}`, { token: admin.token, body: { role: 'leader' } })).status).toBe(200);

    const latest = await auditPage(admin.token);
    const actor = { id: admin.id, email: admin.email };
    const target = { kind: 'user', id: learner.id, email: learner.email };
    expect(latest.items.slice(0, 2)).toEqual([
      { at: expect.any(String), actor, action: 'role-changed', target, details: { from: 'learner', to: 'leader' } },
      { at: expect.any(String), actor, action: 'account-disabled', target },
    ]);
    expect(Date.parse(latest.items[1]!.at)).toBeGreaterThanOrEqual(before - 1000);

    const disables = await auditPage(admin.token, '?action=account-disabled');
    expect(disables.items[0]).toEqual({ at: latest.items[1]!.at, actor, action: 'account-disabled', target });
    expect(disables.items.every((line) => line.action === 'account-disabled')).toBe(true);

    // The same change again changes nothing, so it is not on the log a second time.
    await api('PATCH', `/api/admin/users/${learner.id}`, { token: admin.token, body: { disabled: true } });
    expect((await auditPage(admin.token, '?action=account-disabled')).items.filter((l) => l.target.id === learner.id)).toHaveLength(1);
  });

  it('records an account an admin creates, keeps each line for the retention period, and pages with its own cursors only', async () => {
    const admin = await accountWithRole('admin', 'audit-creates');
    const email = uniqueEmail('audit-invited').toLowerCase();
    const created = await api('POST', '/api/admin/users', { token: admin.token, body: { email, role: 'learner' } });
    expect(created.status).toBe(201);
    const [line] = (await auditPage(admin.token, '?action=account-created')).items;
    expect(line).toMatchObject({ actor: { id: admin.id, email: admin.email }, action: 'account-created', target: { kind: 'user', email }, details: { role: 'learner' } });

    // Stored with the table's TTL attribute, AUDIT_RETENTION_DAYS after the action.
    const { Items } = await dynamo().send(
      new QueryCommand({
        TableName: outputs().TableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :at)',
        ExpressionAttributeValues: { ':pk': 'AUDIT', ':at': line!.at },
      }),
    );
    const stored = Items?.find((i) => i['action'] === 'account-created');
    expect(stored?.['expiresAt']).toBe(Math.floor(Date.parse(line!.at) / 1000) + AUDIT_RETENTION_DAYS * 86_400);
    const again = await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: auditKeys.line(line!.at, String(stored?.['id'])) }));
    expect(again.Item?.['type']).toBe('AuditLine');

    const first = await auditPage(admin.token);
    if (first.nextCursor) {
      const second = await auditPage(admin.token, `?cursor=${first.nextCursor}`);
      expect(second.items[0] && Date.parse(second.items[0].at)).toBeLessThanOrEqual(Date.parse(first.items.at(-1)!.at));
    }
    const forged = Buffer.from(JSON.stringify({ pk: 'USER#x', sk: 'PROFILE' })).toString('base64url');
    expect((await api('GET', `/api/admin/audit?cursor=${forged}`, { token: admin.token })).status).toBe(400);
    expect((await api('GET', '/api/admin/audit?action=everything', { token: admin.token })).status).toBe(400);
  });

  it('is for admins only, and no route changes or deletes a line', async () => {
    const admin = await accountWithRole('admin', 'audit-only');
    for (const role of ['creator', 'leader', 'learner'] as const) {
      const other = await accountWithRole(role, `audit-${role}`);
      expect((await api('GET', '/api/admin/audit', { token: other.token })).status).toBe(403);
    }
    expect((await api('GET', '/api/admin/audit', {})).status).toBe(401);
    for (const method of ['PATCH', 'DELETE', 'PUT', 'POST'] as const) {
      expect((await api(method, '/api/admin/audit', { token: admin.token, body: {} })).status).toBeGreaterThanOrEqual(404);
    }
  });
});
