import { describe, expect, it } from 'vitest';
import { TokenCache } from '#adapters/token-cache.ts';

describe('the providers’ token cache', () => {
  it('asks the provider once while the token lives, again a minute before it expires', async () => {
    let now = 0;
    const cache = new TokenCache(10, () => now);
    let fetched = 0;
    const fetchToken = async () => ({ accessToken: `token-${++fetched}`, expiresAt: now + 3_600_000 });
    const key = TokenCache.key('creator-1', 'zoom', 'account', 'client', 'secret');
    expect(await cache.get(key, fetchToken)).toBe('token-1');
    now = 3_600_000 - 61_000;
    expect(await cache.get(key, fetchToken)).toBe('token-1');
    now = 3_600_000 - 59_000;
    expect(await cache.get(key, fetchToken)).toBe('token-2');
    expect(fetched).toBe(2);
  });

  it('shares one request between concurrent calls, and forgets a refused token', async () => {
    const cache = new TokenCache();
    let fetched = 0;
    const fetchToken = async () => ({ accessToken: `token-${++fetched}`, expiresAt: Date.now() + 3_600_000 });
    const key = TokenCache.key('creator-1', 'teams', 'secret');
    expect(await Promise.all([cache.get(key, fetchToken), cache.get(key, fetchToken)])).toEqual(['token-1', 'token-1']);
    cache.forget(key);
    expect(await cache.get(key, fetchToken)).toBe('token-2');
  });

  it('keys by a hash of the credentials: a changed secret gets a new token, and the secret is not in the key', () => {
    const before = TokenCache.key('creator-1', 'zoom', 'account', 'client', 'old-secret');
    const after = TokenCache.key('creator-1', 'zoom', 'account', 'client', 'new-secret');
    expect(before).not.toBe(after);
    expect(after).not.toContain('new-secret');
  });

  it('keeps at most its capacity, dropping the least recently used', async () => {
    const cache = new TokenCache(2);
    let fetched = 0;
    const fetchToken = async () => ({ accessToken: `token-${++fetched}`, expiresAt: Date.now() + 3_600_000 });
    await cache.get('a', fetchToken);
    await cache.get('b', fetchToken);
    await cache.get('a', fetchToken);
    await cache.get('c', fetchToken);
    expect(await cache.get('a', fetchToken)).toBe('token-1');
    expect(await cache.get('b', fetchToken)).toBe('token-4');
  });
});
