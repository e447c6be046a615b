import { describe, expect, it } from 'vitest';
import { formatPounds } from './format-money.ts';

describe('formatPounds', () => {
  it('writes pounds as en-GB does, with pence only when there are any', () => {
    for (const pence of [0, 5, 2800, 2850, 6700, 123_456, 100_000_000]) {
      const intl = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', minimumFractionDigits: pence % 100 === 0 ? 0 : 2 });
      expect(formatPounds(pence)).toBe(intl.format(pence / 100));
    }
  });
});
