import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { API_RATE_LIMIT } from '#contracts/api-keys.ts';
import { hashApiKey } from '#core/api-keys/api-keys.ts';
import { apiKeyKeys, dynamoApiKeys } from '#data/api-keys.ts';
import { accountWithRole, api, dynamo, givePlan, outputs, useLocalCloudEnv } from './support.ts';

/** API keys end to end (issue 31 point 1, decision 0051): made by a Pro creator, shown once, kept as a hash, revoked. */
const item = async (key: { pk: string; sk: string }) => (await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: key, ConsistentRead: true }))).Item;

describe('API keys', () => {
  it('are shown once, kept only as a hash with a prefix and last four, listed newest first and revoked for good', async () => {
    const creator = await accountWithRole('creator', 'keys-owner');
    const made = await api('POST', '/api/api-keys', { token: creator.token, body: { name: 'Zapier', scopes: ['courses:read', 'enrollments:write'] } });
    expect(made.status).toBe(201);
    const key = made.body.key as string;
    expect(key).toMatch(/^cp_[A-Za-z0-9_-]{43}$/);
    const second = await api('POST', '/api/api-keys', { token: creator.token, body: { name: 'CRM', scopes: ['learners:read'] } });

    const list = await api('GET', '/api/api-keys', { token: creator.token });
    expect(list.status).toBe(200);
    expect(list.body.items.map((k: { id: string }) => k.id)).toEqual([second.body.id, made.body.id]);
    expect(list.body.items[1]).toEqual({ id: made.body.id, name: 'Zapier', scopes: ['courses:read', 'enrollments:write'], prefix: key.slice(0, 8), last4: key.slice(-4), createdAt: made.body.createdAt, lastUsedAt: null });
    expect(JSON.stringify(list.body)).not.toContain(key);

    // At rest: the key's hash and its lookup, never the key.
    const stored = await item(apiKeyKeys.key(creator.id, made.body.id));
    expect(stored).toMatchObject({ hash: hashApiKey(key) });
    expect(JSON.stringify(stored)).not.toContain(key.slice(3));
    expect(await item(apiKeyKeys.lookup(hashApiKey(key)))).toMatchObject({ creatorId: creator.id, keyId: made.body.id, scopes: ['courses:read', 'enrollments:write'] });

    // Another creator can neither see nor revoke it.
    const other = await accountWithRole('creator', 'keys-other');
    expect((await api('GET', '/api/api-keys', { token: other.token })).body.items).toEqual([]);
    expect((await api('DELETE', `/api/api-keys/${made.body.id}`, { token: other.token })).status).toBe(404);

    expect((await api('DELETE', `/api/api-keys/${made.body.id}`, { token: creator.token })).status).toBe(204);
    expect(await item(apiKeyKeys.lookup(hashApiKey(key)))).toBeUndefined();
    expect((await api('GET', '/api/api-keys', { token: creator.token })).body.items.map((k: { id: string }) => k.id)).toEqual([second.body.id]);
    expect((await api('DELETE', `/api/api-keys/${made.body.id}`, { token: creator.token })).status).toBe(404);
  });

  it('need Pro to be made; a creator moved down to Starter still lists and revokes theirs', async () => {
    const starter = await accountWithRole('creator', 'keys-starter', { plan: 'starter' });
    const refused = await api('POST', '/api/api-keys', { token: starter.token, body: { name: 'Zapier', scopes: ['courses:read'] } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'PLAN_REQUIRED', details: { requiredPlan: 'pro' } });

    const pro = await accountWithRole('creator', 'keys-downgraded');
    const made = await api('POST', '/api/api-keys', { token: pro.token, body: { name: 'Site', scopes: ['sales:read'] } });
    await givePlan(pro, 'starter');
    expect((await api('GET', '/api/api-keys', { token: pro.token })).body.items.map((k: { id: string }) => k.id)).toEqual([made.body.id]);
    expect((await api('DELETE', `/api/api-keys/${made.body.id}`, { token: pro.token })).status).toBe(204);
  });

  it('refuse a bad body with 400 and the field that is wrong', async () => {
    const creator = await accountWithRole('creator', 'keys-bad');
    const res = await api('POST', '/api/api-keys', { token: creator.token, body: { name: ' ', scopes: [] } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  });

  it('stop at the cap in the database itself, even when creates race', async () => {
    useLocalCloudEnv();
    const repo = dynamoApiKeys();
    const creatorId = `cap-${Date.now()}`;
    const key = (i: number) => ({ creatorId, id: `k${i}`, name: `k${i}`, scopes: ['courses:read' as const], prefix: 'cp_abcde', last4: 'wxyz', hash: hashApiKey(`${creatorId}-${i}`), createdAt: new Date().toISOString(), lastUsedAt: null });
    const outcomes = await Promise.all([0, 1, 2, 3, 4].map((i) => repo.create(key(i), 3)));
    expect(outcomes.filter((o) => o === 'created')).toHaveLength(3);
    expect(outcomes.filter((o) => o === 'limit')).toHaveLength(2);
    const held = await dynamo().send(new QueryCommand({ TableName: outputs().TableName, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :k)', ExpressionAttributeValues: { ':pk': `CREATOR#${creatorId}`, ':k': 'APIKEY#' } }));
    expect(held.Items).toHaveLength(3);
    const kept = held.Items![0]!['id'] as string;
    expect(await repo.revoke(creatorId, kept)).toBe(true);
    expect(await repo.create(key(9), 3)).toBe('created');
  });

  it("keep each key's bucket in the table: 20 at once even when racing, then refused with Retry-After; a revoked key's bucket says so", async () => {
    useLocalCloudEnv();
    const repo = dynamoApiKeys();
    const creatorId = `bucket-${Date.now()}`;
    const hash = hashApiKey(creatorId);
    await repo.create({ creatorId, id: 'k1', name: 'k1', scopes: ['courses:read'], prefix: 'cp_abcde', last4: 'wxyz', hash, createdAt: new Date().toISOString(), lastUsedAt: null }, 20);
    const now = Date.now();
    const decisions = await Promise.all(Array.from({ length: 25 }, () => repo.takeToken(hash, now, API_RATE_LIMIT)));
    expect(decisions.filter((d) => d !== 'revoked' && d.admitted)).toHaveLength(20);
    expect(decisions.filter((d) => d !== 'revoked' && !d.admitted)).toEqual(Array.from({ length: 5 }, () => ({ admitted: false, retryAfterSeconds: 1 })));
    // A tenth of a second later one more fits (10 a second), the next does not.
    expect(await repo.takeToken(hash, now + 100, API_RATE_LIMIT)).toMatchObject({ admitted: true });
    expect(await repo.takeToken(hash, now + 100, API_RATE_LIMIT)).toMatchObject({ admitted: false });
    // Idle for a minute: full again.
    expect(await repo.takeToken(hash, now + 60_000, API_RATE_LIMIT)).toMatchObject({ admitted: true });
    await repo.revoke(creatorId, 'k1');
    expect(await repo.takeToken(hash, now + 60_100, API_RATE_LIMIT)).toBe('revoked');
  });
});
