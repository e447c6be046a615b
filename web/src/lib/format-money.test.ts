import { describe, expect, it } from 'vitest';
import { formatPounds, parsePounds, poundsInput } from './format-money.ts';

describe('formatPounds', () => {
  it('writes pounds as en-GB does, with pence only when there are any', () => {
    for (const pence of [0, 5, 2800, 2850, 6700, 123_456, 100_000_000]) {
      const intl = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', minimumFractionDigits: pence % 100 === 0 ? 0 : 2 });
      expect(formatPounds(pence)).toBe(intl.format(pence / 100));
    }
  });
});

describe('parsePounds', () => {
  it('reads what a person types as pounds into pence', () => {
    expect(parsePounds('29')).toBe(2900);
    expect(parsePounds('29.9')).toBe(2990);
    expect(parsePounds(' £1,234.05 ')).toBe(123_405);
    expect(parsePounds('')).toBe(0);
    expect(parsePounds('0.30')).toBe(30);
  });

  it('refuses what is not an amount of pounds and pence', () => {
    for (const text of ['abc', '1.234', '-5', '1e3', '£', '12.']) expect(parsePounds(text), text).toBeUndefined();
  });

  it('round-trips with the field it fills', () => {
    for (const pence of [0, 30, 2900, 2990, 123_405]) expect(parsePounds(poundsInput(pence))).toBe(pence);
  });
});
