/** A /v1 request's Idempotency-Key record (decision 0052): what a retry with the same key is answered with. */
export type IdempotentRecord =
  | { readonly state: 'pending'; readonly requestHash: string }
  | { readonly state: 'done'; readonly requestHash: string; readonly status: number; readonly body: unknown };

export interface IdempotencyStore {
  /**
   * Writes `pending` until `expiresAt` (epoch seconds) unless the key has a record: then that record (nothing
   * written). A record whose time ran out by `now` (epoch seconds, the caller's clock) counts as gone.
   */
  begin(creatorId: string, key: string, requestHash: string, at: { now: number; expiresAt: number }): Promise<IdempotentRecord | undefined>;
  /** The first answer, kept until `expiresAt` (the table's TTL). */
  complete(creatorId: string, key: string, answer: { status: number; body: unknown }, expiresAt: number): Promise<void>;
  /** Forgets a pending key whose request failed, so that a retry runs again. */
  abandon(creatorId: string, key: string): Promise<void>;
}
