import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_KEYS_MAX, API_RATE_LIMIT } from '#contracts/api-keys.ts';
import { admitApiCall, authenticateApiKey, createApiKey, hashApiKey, listApiKeys, revokeApiKey } from '#core/api-keys/api-keys.ts';
import { ConflictError, NotFoundError, RateLimitedError, UnauthenticatedError } from '#core/errors.ts';
import { memoryApiKeys } from '#test/functions/fakes/api-keys.ts';
import { sequentialIds, testClock } from '#test/functions/fakes/clock.ts';

const deps = () => ({ apiKeys: memoryApiKeys(), clock: testClock(), ids: sequentialIds('key'), randomSecret: () => randomBytes(32).toString('base64url') });
const body = { name: 'Zapier', scopes: ['courses:read', 'enrollments:write'] as ('courses:read' | 'enrollments:write')[] };

describe("a creator's API keys", () => {
  it('are shown once as cp_ and 43 random characters, and kept only as their hash with a prefix and the last four', async () => {
    const d = deps();
    const made = await createApiKey(d, { creatorId: 'u1', body });
    expect(made.key).toMatch(/^cp_[A-Za-z0-9_-]{43}$/);
    const [stored] = [...d.apiKeys.keys.values()];
    expect(stored).toMatchObject({ creatorId: 'u1', hash: hashApiKey(made.key), prefix: made.key.slice(0, 8), last4: made.key.slice(-4), scopes: body.scopes });
    expect(JSON.stringify([...d.apiKeys.keys.values(), ...d.apiKeys.byHash.values()])).not.toContain(made.key.slice(3));
  });

  it('are listed newest first, without the key, with their last use', async () => {
    const d = deps();
    const first = await createApiKey(d, { creatorId: 'u1', body });
    d.clock.advance(1000);
    const second = await createApiKey(d, { creatorId: 'u1', body: { name: 'CRM', scopes: ['learners:read'] } });
    await createApiKey(d, { creatorId: 'u2', body });
    await authenticateApiKey(d, `Bearer ${first.key}`);
    const { items } = await listApiKeys(d, 'u1');
    expect(items.map((k) => k.id)).toEqual([second.id, first.id]);
    expect(items[1]).toEqual({ id: first.id, name: 'Zapier', scopes: body.scopes, prefix: first.key.slice(0, 8), last4: first.key.slice(-4), createdAt: first.createdAt, lastUsedAt: d.clock.now().toISOString() });
    expect(items[0]!.lastUsedAt).toBeNull();
    expect(JSON.stringify(items)).not.toContain(first.key);
  });

  it(`stop at ${API_KEYS_MAX} held keys with a 409 that says to revoke one, and a revoked key frees its place`, async () => {
    const d = deps();
    const made = [];
    for (let i = 0; i < API_KEYS_MAX; i++) made.push(await createApiKey(d, { creatorId: 'u1', body }));
    await expect(createApiKey(d, { creatorId: 'u1', body })).rejects.toThrow(new ConflictError(`You can hold at most ${API_KEYS_MAX} API keys. Revoke one you no longer use first.`));
    await revokeApiKey(d, { creatorId: 'u1', keyId: made[0]!.id });
    await expect(createApiKey(d, { creatorId: 'u1', body })).resolves.toMatchObject({ name: 'Zapier' });
  });

  it('are refused from the call after their revocation; another creator cannot revoke them (404)', async () => {
    const d = deps();
    const made = await createApiKey(d, { creatorId: 'u1', body });
    expect(await authenticateApiKey(d, `Bearer ${made.key}`)).toMatchObject({ creatorId: 'u1', keyId: made.id, scopes: body.scopes });
    await expect(revokeApiKey(d, { creatorId: 'u2', keyId: made.id })).rejects.toThrow(NotFoundError);
    await revokeApiKey(d, { creatorId: 'u1', keyId: made.id });
    expect(await authenticateApiKey(d, `Bearer ${made.key}`)).toBeUndefined();
    expect((await listApiKeys(d, 'u1')).items).toEqual([]);
    await expect(revokeApiKey(d, { creatorId: 'u1', keyId: made.id })).rejects.toThrow(NotFoundError);
  });

  it('refuse a missing, malformed or unknown key', async () => {
    const d = deps();
    const made = await createApiKey(d, { creatorId: 'u1', body });
    for (const header of [undefined, '', made.key, `Basic ${made.key}`, 'Bearer cp_unknown', `Bearer ${made.key.slice(3)}`, `Bearer ${made.key}x`])
      expect(await authenticateApiKey(d, header), String(header)).toBeUndefined();
  });

  it('record their last use at most once a minute, not on every call', async () => {
    const d = deps();
    const made = await createApiKey(d, { creatorId: 'u1', body });
    const started = d.clock.now().toISOString();
    for (let i = 0; i < 30; i++) {
      await authenticateApiKey(d, `Bearer ${made.key}`);
      d.clock.advance(1000);
    }
    expect(d.apiKeys.touches()).toBe(1);
    expect((await listApiKeys(d, 'u1')).items[0]!.lastUsedAt).toBe(started);
    d.clock.advance(31_000);
    await authenticateApiKey(d, `Bearer ${made.key}`);
    expect(d.apiKeys.touches()).toBe(2);
    expect((await listApiKeys(d, 'u1')).items[0]!.lastUsedAt).toBe(d.clock.now().toISOString());
  });
});

describe('each /v1 call (admitApiCall)', () => {
  it(`takes a token: ${API_RATE_LIMIT.burst} at once, then 429 with Retry-After until the bucket refills`, async () => {
    const d = deps();
    const { key } = await createApiKey(d, { creatorId: 'u1', body });
    for (let i = 0; i < API_RATE_LIMIT.burst; i++) await admitApiCall(d, `Bearer ${key}`);
    const refused = await admitApiCall(d, `Bearer ${key}`).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    d.clock.advance(1000 / API_RATE_LIMIT.rate);
    await expect(admitApiCall(d, `Bearer ${key}`)).resolves.toBeUndefined();
  });

  it('refuses a revoked key, a malformed header and no header with 401', async () => {
    const d = deps();
    const made = await createApiKey(d, { creatorId: 'u1', body });
    await revokeApiKey(d, { creatorId: 'u1', keyId: made.id });
    for (const header of [`Bearer ${made.key}`, made.key, 'Bearer eyJhbGciOi', undefined]) {
      await expect(admitApiCall(d, header)).rejects.toBeInstanceOf(UnauthenticatedError);
    }
  });
});
