import { describe, expect, it } from 'vitest';
import { API_RATE_LIMIT } from '#contracts/api-keys.ts';
import type { BucketLimits } from '#core/api-keys/ports.ts';
import { takeToken } from '#core/api-keys/rate-limit.ts';
import { testClock } from '#test/functions/fakes/clock.ts';

/** Calls at the clock's time against one stored `tat`, as the table keeps it; answers how many were admitted. */
const bucket = (limits: BucketLimits = API_RATE_LIMIT) => {
  const clock = testClock();
  let tat: number | undefined;
  const call = () => {
    const decision = takeToken(tat, clock.now().getTime(), limits);
    if (decision.admitted) tat = decision.tat;
    return decision;
  };
  const burst = (n: number) => Array.from({ length: n }, call).filter((d) => d.admitted).length;
  return { clock, call, burst };
};

describe("a key's rate limit (10 a second, bursts of 20)", () => {
  it('admits a burst of 20 from an idle key and refuses the 21st, telling it to retry after a second', () => {
    const b = bucket();
    expect(b.burst(20)).toBe(20);
    expect(b.call()).toEqual({ admitted: false, retryAfterSeconds: 1 });
  });

  it('refills at 10 a second: after an emptying burst, one call per 100 ms is admitted and no more', () => {
    const b = bucket();
    b.burst(20);
    b.clock.advance(100);
    expect(b.burst(3)).toBe(1);
    b.clock.advance(500);
    expect(b.burst(10)).toBe(5);
  });

  it('holds 10 a second steady for a minute', () => {
    const b = bucket();
    let admitted = 0;
    for (let ms = 0; ms < 60_000; ms += 50) {
      admitted += b.burst(1);
      b.clock.advance(50);
    }
    // A full bucket (20), plus 10 a second refilled over the minute, less the interval not yet refilled at its end.
    expect(admitted).toBe(619);
  });

  it('is full again after two idle seconds, and never holds more than the burst', () => {
    const b = bucket();
    b.burst(20);
    b.clock.advance(60_000);
    expect(b.burst(25)).toBe(20);
  });

  it('names a Retry-After of whole seconds, at least 1, that is enough to be admitted', () => {
    const b = bucket({ rate: 0.25, burst: 1 });
    expect(b.burst(1)).toBe(1);
    const refused = b.call();
    expect(refused).toEqual({ admitted: false, retryAfterSeconds: 4 });
    b.clock.advance(3_999);
    expect(b.call().admitted).toBe(false);
    b.clock.advance(1);
    expect(b.call().admitted).toBe(true);
  });
});
