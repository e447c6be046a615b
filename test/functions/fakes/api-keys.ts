import type { ApiKeyGrant, ApiKeyRepository, StoredApiKey } from '#core/api-keys/ports.ts';
import { takeToken } from '#core/api-keys/rate-limit.ts';

/** In-memory API keys: the keys by id and their lookups by hash, with the same rules as functions/data/api-keys.ts. */
export const memoryApiKeys = () => {
  const keys = new Map<string, StoredApiKey>();
  const byHash = new Map<string, ApiKeyGrant>();
  const tats = new Map<string, number>();
  let touches = 0;
  const repo: ApiKeyRepository & { keys: typeof keys; byHash: typeof byHash; touches(): number } = {
    keys,
    byHash,
    touches: () => touches,
    async create(key, max) {
      if ([...keys.values()].filter((k) => k.creatorId === key.creatorId).length >= max) return 'limit';
      keys.set(key.id, { ...key });
      byHash.set(key.hash, { creatorId: key.creatorId, keyId: key.id, scopes: key.scopes, lastUsedAt: null });
      return 'created';
    },
    async list(creatorId) {
      return [...keys.values()].filter((k) => k.creatorId === creatorId).sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
    },
    async revoke(creatorId, keyId) {
      const key = keys.get(keyId);
      if (key?.creatorId !== creatorId) return false;
      keys.delete(keyId);
      byHash.delete(key.hash);
      tats.delete(key.hash);
      return true;
    },
    async findByHash(hash) {
      const grant = byHash.get(hash);
      return grant && { ...grant };
    },
    async takeToken(hash, now, limits) {
      if (!byHash.has(hash)) return 'revoked';
      const decision = takeToken(tats.get(hash), now, limits);
      if (decision.admitted) tats.set(hash, decision.tat);
      return decision;
    },
    async touch(grant, hash, at, staleBefore) {
      const stored = byHash.get(hash);
      if (!stored || (stored.lastUsedAt !== null && stored.lastUsedAt >= staleBefore)) return;
      touches++;
      byHash.set(hash, { ...stored, lastUsedAt: at });
      const key = keys.get(grant.keyId);
      if (key) keys.set(key.id, { ...key, lastUsedAt: at });
    },
  };
  return repo;
};
