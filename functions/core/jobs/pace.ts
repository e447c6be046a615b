import { SEND_RATE_SHARE } from '#contracts/campaigns.ts';

/**
 * The share of SES's MaxSendRate each of the platform's own mail jobs paces itself at (the certificate issuer, the
 * mail sender, the leaders' weekly report): what campaigns leave (SEND_RATE_SHARE). They rarely send at once; a send SES
 * throttles all the same is not lost (the mail queue holds it, the weekly report gives the leader's week back).
 */
export const PLATFORM_MAIL_SHARE = 1 - SEND_RATE_SHARE;

/**
 * SES's MaxSendRate as `read` answers it, or SES's own sandbox rate (1 a second) when it cannot be read (a throttled or
 * refused GetAccount): a job goes on slowly rather than failing its slice.
 */
export const sendRateOr1 = (read: () => Promise<number>): Promise<number> => read().catch(() => 1);

/** Sends a second one of the platform's mail jobs may start: its share of SES's rate, at least one. */
export const platformMailRate = (maxSendRate: number): number => Math.max(1, maxSendRate * PLATFORM_MAIL_SHARE);

/**
 * Paces sends at `perSecond` however many workers ask: each call takes `count` turns (one email, or a batch of them)
 * and resolves at the first (the first call at once), so a pool of concurrent workers together stays under the rate.
 */
export const pacer = (perSecond: number, deps: { now: () => number; sleep: (ms: number) => Promise<void> }) => {
  const gapMs = 1000 / perSecond;
  let next = -Infinity;
  return async (count = 1): Promise<void> => {
    const now = deps.now();
    const at = Math.max(now, next);
    next = at + gapMs * count;
    if (at > now) await deps.sleep(at - now);
  };
};

/**
 * Runs `task` on each item, up to `concurrency` at once, while `timeUp()` says no (checked before each item but the
 * first): the items started, in order (the rest are for the next slice).
 */
export const inPool = async <T>(items: readonly T[], concurrency: number, timeUp: () => boolean, task: (item: T) => Promise<void>): Promise<number> => {
  let next = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped && next < items.length) {
      if (next > 0 && timeUp()) {
        stopped = true;
        return;
      }
      await task(items[next++]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, concurrency), items.length) }, worker));
  return next;
};
