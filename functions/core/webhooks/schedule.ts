import { WEBHOOK_RETRY_DELAYS_S } from '#contracts/webhooks.ts';

/** Attempts a delivery gets in all: the first and one per retry delay. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_S.length + 1;

/**
 * After `attempts` attempts that all failed: when the next is due (ISO), or null when that was the last (then
 * `failed`). The waits are WEBHOOK_RETRY_DELAYS_S (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h); `firstDelayS`
 * replaces the first (the local cloud's tests, config WEBHOOK_FIRST_RETRY_DELAY_S).
 */
export const nextAttemptAfter = (attempts: number, failedAt: Date, firstDelayS?: number): string | null => {
  if (attempts < 1 || attempts >= WEBHOOK_MAX_ATTEMPTS) return null;
  const delay = attempts === 1 && firstDelayS !== undefined ? firstDelayS : WEBHOOK_RETRY_DELAYS_S[attempts - 1]!;
  return new Date(failedAt.getTime() + delay * 1000).toISOString();
};
