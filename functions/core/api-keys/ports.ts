import type { ApiKeyView, ApiScope } from '#contracts/api-keys.ts';
import type { Clock, Ids } from '#core/ports.ts';

/** A key as stored: its view, its owner and the SHA-256 of the key (hex); the key itself is never stored. */
export interface StoredApiKey extends ApiKeyView {
  readonly creatorId: string;
  readonly hash: string;
}

/** What the authorizer learns from a key's hash (the lookup item). */
export interface ApiKeyGrant {
  readonly creatorId: string;
  readonly keyId: string;
  readonly scopes: readonly ApiScope[];
  readonly lastUsedAt: string | null;
}

export interface ApiKeyRepository {
  /** Writes the key and its lookup by hash in one transaction; 'limit' (nothing written) when the creator holds `max` keys. */
  create(key: StoredApiKey, max: number): Promise<'created' | 'limit'>;
  /** The creator's keys, newest first. */
  list(creatorId: string): Promise<StoredApiKey[]>;
  /** Deletes the key and its lookup in one transaction; false when the creator has no such key. */
  revoke(creatorId: string, keyId: string): Promise<boolean>;
  findByHash(hash: string): Promise<ApiKeyGrant | undefined>;
  /** Sets `lastUsedAt` to `at` on the key and its lookup unless it is already after `staleBefore` (no write then). */
  touch(grant: ApiKeyGrant, hash: string, at: string, staleBefore: string): Promise<void>;
  /**
   * One call against the key's bucket (core/api-keys/rate-limit.ts), kept on its lookup item: 'revoked' when the lookup
   * is gone (so a call inside the authorizer's cached minute is refused too), else the bucket's decision.
   */
  takeToken(hash: string, now: number, limits: BucketLimits, attempt?: number): Promise<BucketDecision | 'revoked'>;
}

export interface ApiKeyDeps {
  readonly apiKeys: ApiKeyRepository;
  readonly clock: Clock;
  readonly ids: Ids;
  /** 32 random bytes or more, base64url (crypto.randomBytes in the composition root). */
  readonly randomSecret: () => string;
}

/** A key's rate limit (core/api-keys/rate-limit.ts, decision 0051). */
export interface BucketLimits {
  /** Requests a second, steady. */
  readonly rate: number;
  /** Requests at once from an idle key. */
  readonly burst: number;
}

export type BucketDecision =
  | { readonly admitted: true; readonly tat: number }
  | { readonly admitted: false; readonly retryAfterSeconds: number };
