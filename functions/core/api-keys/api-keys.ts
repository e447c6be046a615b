import { createHash } from 'node:crypto';
import { API_KEY_PREFIX, API_KEYS_MAX, API_RATE_LIMIT, type ApiKeyList, type CreateApiKeyBody, type CreatedApiKey } from '#contracts/api-keys.ts';
import { ConflictError, NotFoundError, RateLimitedError, UnauthenticatedError } from '#core/errors.ts';
import type { ApiKeyDeps, ApiKeyGrant, StoredApiKey } from '#core/api-keys/ports.ts';

/** Characters of the key kept for display: `cp_` and the first five random ones. */
export const API_KEY_PREFIX_LENGTH = 8;
/** `lastUsedAt` is written at most once per this many milliseconds per key (no write per call). */
export const LAST_USED_RESOLUTION_MS = 60_000;

/** SHA-256 (hex) of a key: what is stored and looked up. A key has 256 random bits, so no salt or slow hash is needed. */
export const hashApiKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

export const apiKeyLimitMessage = `You can hold at most ${API_KEYS_MAX} API keys. Revoke one you no longer use first.`;

/** Use case: a new key for the creator, shown this once; only its hash, prefix and last four characters are kept. */
export const createApiKey = async (deps: ApiKeyDeps, input: { creatorId: string; body: CreateApiKeyBody }): Promise<CreatedApiKey> => {
  const key = `${API_KEY_PREFIX}${deps.randomSecret()}`;
  const stored: StoredApiKey = {
    creatorId: input.creatorId,
    id: deps.ids.newId(),
    name: input.body.name,
    scopes: [...input.body.scopes],
    prefix: key.slice(0, API_KEY_PREFIX_LENGTH),
    last4: key.slice(-4),
    createdAt: deps.clock.now().toISOString(),
    lastUsedAt: null,
    hash: hashApiKey(key),
  };
  if ((await deps.apiKeys.create(stored, API_KEYS_MAX)) === 'limit') throw new ConflictError(apiKeyLimitMessage);
  return { id: stored.id, name: stored.name, scopes: stored.scopes, key, createdAt: stored.createdAt };
};

/** Use case: the creator's keys, newest first, with their last use (never the key). */
export const listApiKeys = async (deps: Pick<ApiKeyDeps, 'apiKeys'>, creatorId: string): Promise<ApiKeyList> => ({
  items: (await deps.apiKeys.list(creatorId)).map(({ id, name, scopes, prefix, last4, createdAt, lastUsedAt }) => ({ id, name, scopes, prefix, last4, createdAt, lastUsedAt })),
});

/** Use case: revoke a key: its lookup goes with it, so the next call with it is refused. Another creator's key is 404. */
export const revokeApiKey = async (deps: Pick<ApiKeyDeps, 'apiKeys'>, input: { creatorId: string; keyId: string }): Promise<void> => {
  if (!(await deps.apiKeys.revoke(input.creatorId, input.keyId))) throw new NotFoundError('No such API key.');
};

/** The key of an `Authorization: Bearer cp_...` header, or undefined when the header holds none. */
export const bearerApiKey = (authorization: string | undefined): string | undefined => {
  const key = /^Bearer\s+(\S+)$/i.exec(authorization?.trim() ?? '')?.[1];
  return key?.startsWith(API_KEY_PREFIX) ? key : undefined;
};

/**
 * The key authorizer's rule: the grant of a `Bearer cp_...` header, or undefined (unknown, revoked, malformed). Records
 * the use at most once a minute per key.
 */
export const authenticateApiKey = async (deps: Pick<ApiKeyDeps, 'apiKeys' | 'clock'>, authorization: string | undefined): Promise<ApiKeyGrant | undefined> => {
  const key = bearerApiKey(authorization);
  if (!key) return undefined;
  const hash = hashApiKey(key);
  const grant = await deps.apiKeys.findByHash(hash);
  if (!grant) return undefined;
  const now = deps.clock.now();
  const staleBefore = new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString();
  if (grant.lastUsedAt === null || grant.lastUsedAt < staleBefore) await deps.apiKeys.touch(grant, hash, now.toISOString(), staleBefore);
  return grant;
};

export const INVALID_API_KEY_MESSAGE = 'This API key is not valid or has been revoked. Send an active key as "Authorization: Bearer cp_...".';
export const apiRateLimitMessage = `Each API key may make ${API_RATE_LIMIT.rate} requests a second (bursts of ${API_RATE_LIMIT.burst}). Wait and retry.`;

/**
 * Every /v1 call, after the authorizer's (cached) answer: one token from the key's bucket. A key revoked since the
 * authorizer's answer was cached is 401 here, from its next call; an empty bucket is 429 with Retry-After.
 */
export const admitApiCall = async (deps: Pick<ApiKeyDeps, 'apiKeys' | 'clock'>, authorization: string | undefined): Promise<void> => {
  const key = bearerApiKey(authorization);
  if (!key) throw new UnauthenticatedError(INVALID_API_KEY_MESSAGE);
  const decision = await deps.apiKeys.takeToken(hashApiKey(key), deps.clock.now().getTime(), API_RATE_LIMIT);
  if (decision === 'revoked') throw new UnauthenticatedError(INVALID_API_KEY_MESSAGE);
  if (!decision.admitted) throw new RateLimitedError(apiRateLimitMessage, decision.retryAfterSeconds);
};
