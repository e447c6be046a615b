import { describe, expect, it } from 'vitest';
import { tokenBucket } from '#lib/local/gateway/token-bucket.ts';

describe('route throttling', () => {
  it('allows a burst, refuses the next request, and refills at the rate', () => {
    let now = 0;
    const take = tokenBucket({ rate: 2, burst: 3 }, () => now);
    expect([take(), take(), take(), take()]).toEqual([true, true, true, false]);
    now = 500; // half a second at 2/s: one token back
    expect([take(), take()]).toEqual([true, false]);
  });
});
