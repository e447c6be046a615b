import { createHash } from 'node:crypto';
import { ConflictError } from '#core/errors.ts';
import type { Clock } from '#core/ports.ts';
import type { IdempotencyStore } from '#core/public-api/ports.ts';

/** How long an Idempotency-Key of the public API is remembered (docs/api.md). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

export const IDEMPOTENCY_REUSED_MESSAGE = 'This Idempotency-Key was already used for a different request.';
export const IDEMPOTENCY_IN_PROGRESS_MESSAGE = 'A request with this Idempotency-Key is still in progress. Retry in a moment.';

/**
 * A /v1 POST with an optional Idempotency-Key (decision 0052): the first request with a key runs `run` and its answer
 * is kept 24 h; a retry with the same key and the same request (method, path, body) gets that answer again without
 * running anything; the same key with another request is 409, and so is a retry while the first is still running. A
 * request that fails leaves no record, so it can be retried. Without a key, `run` simply runs.
 */
export const idempotent = async (
  deps: { idempotency: IdempotencyStore; clock: Clock },
  input: { creatorId: string; key: string | undefined; request: unknown },
  run: () => Promise<{ status: number; body: unknown }>,
): Promise<{ status: number; body: unknown }> => {
  if (!input.key) return run();
  const requestHash = createHash('sha256').update(JSON.stringify(input.request)).digest('base64url');
  const now = Math.floor(deps.clock.now().getTime() / 1000);
  const expiresAt = now + IDEMPOTENCY_TTL_SECONDS;
  const earlier = await deps.idempotency.begin(input.creatorId, input.key, requestHash, { now, expiresAt });
  if (earlier) {
    if (earlier.requestHash !== requestHash) throw new ConflictError(IDEMPOTENCY_REUSED_MESSAGE);
    if (earlier.state === 'pending') throw new ConflictError(IDEMPOTENCY_IN_PROGRESS_MESSAGE);
    return { status: earlier.status, body: earlier.body };
  }
  let answer: { status: number; body: unknown };
  try {
    answer = await run();
  } catch (error) {
    await deps.idempotency.abandon(input.creatorId, input.key);
    throw error;
  }
  await deps.idempotency.complete(input.creatorId, input.key, answer, expiresAt);
  return answer;
};
