/**
 * A fresh Idempotency-Key: one per intent (a purchase, a spend). The server applies a key once however often its
 * request arrives, so a retry of the same intent carries the same key and a new intent a new one. Matches the
 * contract's `idempotencyKey` (8-200 of [\w.:-]).
 */
export function newIdempotencyKey(): string {
  // randomUUID needs a secure context (https or localhost); a dev server reached by LAN address is neither.
  if (typeof crypto !== 'undefined' && 'randomUUID' in crypto) return crypto.randomUUID();
  return `k-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/** The request header that carries it. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
