import type { BucketDecision, BucketLimits } from '#core/api-keys/ports.ts';

/**
 * A key's token bucket (decision 0051), kept as GCRA: one number per key, the "theoretical arrival time" `tat` (ms), so
 * the store needs no read-modify-write of two fields: a call is admitted when `tat` is at most `burst - 1` intervals
 * ahead of now, and then moves `tat` one interval on from max(tat, now). The same as a bucket of `burst` tokens
 * refilled at `rate` a second: after `burst` calls at once the next waits one interval, and an idle key is full again.
 */

/** The interval between two calls at the steady rate, and how far ahead of now `tat` may be. */
export const bucketShape = (limits: BucketLimits) => {
  const interval = 1000 / limits.rate;
  return { interval, tolerance: (limits.burst - 1) * interval };
};

/** One call at `now` (ms) against the stored `tat` (undefined: a key never used, a full bucket). */
export const takeToken = (tat: number | undefined, now: number, limits: BucketLimits): BucketDecision => {
  const { interval, tolerance } = bucketShape(limits);
  const from = Math.max(tat ?? now, now);
  const ahead = from - now;
  if (ahead > tolerance) return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil((ahead - tolerance) / 1000)) };
  return { admitted: true, tat: from + interval };
};
