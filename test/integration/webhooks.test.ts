import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { webhookKeys } from '#data/webhooks.ts';
import { accountWithRole, api, dynamo, givePlan, outputs } from './support.ts';

/** Webhooks end to end (issue 31 points 4-5, decision 0053). One Pro creator shared by the cases. */
const item = async (key: { pk: string; sk: string }) => (await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: key, ConsistentRead: true }))).Item;

describe('webhook endpoints', () => {
  it('show the secret once, keep it sealed, list without it, refuse a private URL with 400, and need Pro only to be made', async () => {
    const creator = await accountWithRole('creator', 'hooks-owner');
    const made = await api('POST', '/api/webhook-endpoints', { token: creator.token, body: { url: 'http://127.0.0.1:9/in', events: ['enrollment.created'] } });
    expect(made.status).toBe(201);
    const secret = made.body.secret as string;
    expect(secret).toMatch(/^whsec_/);
    expect(JSON.stringify(await item(webhookKeys.endpoint(creator.id, made.body.id)))).not.toContain(secret.slice(6));

    const list = await api('GET', '/api/webhook-endpoints', { token: creator.token });
    expect(list.body.items).toEqual([{ id: made.body.id, url: 'http://127.0.0.1:9/in', events: ['enrollment.created'], createdAt: expect.any(String), disabledAt: null }]);

    const metadata = await api('POST', '/api/webhook-endpoints', { token: creator.token, body: { url: 'https://169.254.169.254/latest/meta-data', events: ['order.paid'] } });
    expect(metadata.status).toBe(400);
    expect(metadata.body.error).toMatchObject({ code: 'VALIDATION_FAILED', message: 'The address must be public: private, loopback and link-local addresses are not allowed.' });

    const other = await accountWithRole('creator', 'hooks-other', { plan: 'starter' });
    const refused = await api('POST', '/api/webhook-endpoints', { token: other.token, body: { url: 'https://hooks.example.com/in', events: ['order.paid'] } });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('PLAN_REQUIRED');
    expect((await api('DELETE', `/api/webhook-endpoints/${made.body.id}`, { token: other.token })).status).toBe(404);

    // Moved down to Starter: still lists and deletes.
    await givePlan(creator, 'starter');
    expect((await api('GET', '/api/webhook-endpoints', { token: creator.token })).body.items).toHaveLength(1);
    expect((await api('DELETE', `/api/webhook-endpoints/${made.body.id}`, { token: creator.token })).status).toBe(204);
    expect((await api('GET', '/api/webhook-endpoints', { token: creator.token })).body.items).toEqual([]);
  });
});
