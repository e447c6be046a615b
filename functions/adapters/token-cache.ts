import { createHash } from 'node:crypto';

/**
 * Access tokens of the live-session providers (issue 30), cached per creator and credentials in the function's memory
 * until a minute before they expire: a warm function asks Zoom, Microsoft identity or Google for a token about once an
 * hour per creator, not per call. The key holds a hash of the credentials, so a changed secret never gets the old
 * token; a refused token (401 from the API) is dropped with `forget` and fetched once more. At most `capacity` entries
 * (least recently used out), so a function serving many creators stays small.
 */
export interface CachedToken {
  accessToken: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

const EARLY_MS = 60_000;

export class TokenCache {
  readonly #entries = new Map<string, CachedToken>();
  /** Fetches in flight, so concurrent calls of one creator share one token request. */
  readonly #pending = new Map<string, Promise<CachedToken>>();

  constructor(
    private readonly capacity = 500,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cache key of a creator's credentials: never the secret itself. */
  static key(creatorId: string, provider: string, ...credentials: string[]): string {
    return `${provider}:${creatorId}:${createHash('sha256').update(credentials.join('\u0000')).digest('base64url')}`;
  }

  async get(key: string, fetchToken: () => Promise<CachedToken>): Promise<string> {
    const cached = this.#entries.get(key);
    if (cached && cached.expiresAt - EARLY_MS > this.now()) {
      this.#entries.delete(key);
      this.#entries.set(key, cached);
      return cached.accessToken;
    }
    let pending = this.#pending.get(key);
    if (!pending) {
      pending = fetchToken().finally(() => this.#pending.delete(key));
      this.#pending.set(key, pending);
    }
    const token = await pending;
    this.#entries.delete(key);
    this.#entries.set(key, token);
    while (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value as string);
    return token.accessToken;
  }

  forget(key: string): void {
    this.#entries.delete(key);
  }
}
