import { describe, expect, it } from 'vitest';
import { WEBHOOK_MAX_ATTEMPTS, nextAttemptAfter } from '#core/webhooks/schedule.ts';

describe('the retry schedule of a delivery', () => {
  const at = new Date('2026-11-21T12:00:00.000Z');
  const after = (seconds: number) => new Date(at.getTime() + seconds * 1000).toISOString();

  it('waits about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h between attempts, then gives up', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => nextAttemptAfter(n, at))).toEqual([after(5), after(300), after(1800), after(7200), after(18000), after(36000), after(36000)]);
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(8);
    expect(nextAttemptAfter(8, at)).toBeNull();
    expect(nextAttemptAfter(9, at)).toBeNull();
  });

  it('lets the local cloud shorten the first wait only', () => {
    expect(nextAttemptAfter(1, at, 1)).toBe(after(1));
    expect(nextAttemptAfter(2, at, 1)).toBe(after(300));
  });
});
