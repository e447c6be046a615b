import { describe, expect, it } from 'vitest';
import { integerOf, packedCodec } from '#data/packed-counters.ts';

const day = packedCodec([6, 6, 7, 7]);
/** What DynamoDB's ADD does to a stored number: an exact decimal sum. */
const add = (...deltas: { value: string }[]) => deltas.reduce((sum, d) => sum + BigInt(d.value), 0n).toString();

describe('packed counters', () => {
  it('adds packed moves as their counters would add, a signed top over non-negative lows', () => {
    const stored = add(day.delta(2900, 1, 0, 1, 0), day.delta(0, 0, 0, 0, 1), day.delta(4500, 1, 0, 1, 0), day.delta(-2900, 0, 1, 0, 0));
    expect(day.read(stored)).toEqual([4500, 2, 1, 2, 1]);
    // A day of refunds only: the revenue goes below zero, the counts stay right.
    expect(day.read(add(day.delta(-12_345, 0, 3, 0, 0), day.delta(0, 0, 0, 0, 7)))).toEqual([-12_345, 0, 3, 0, 7]);
  });

  it('keeps every digit past 2^53 (no JS number on the way) and reads nothing as zeros', () => {
    const big = 99_999_999_999; // pence: ~£1bn in a day, over 10^26 once packed
    expect(day.read(add(day.delta(big, 999_999, 999_999, 9_999_999, 9_999_999)))).toEqual([big, 999_999, 999_999, 9_999_999, 9_999_999]);
    expect(day.read(undefined)).toEqual([0, 0, 0, 0, 0]);
    expect(packedCodec([7]).read(add(packedCodec([7]).delta(-400, 0)))).toEqual([-400, 0]);
  });

  it('reads a number in any form DynamoDB may write it: plain, signed, with an exponent', () => {
    expect(integerOf('1200')).toBe(1200n);
    expect(integerOf('-5')).toBe(-5n);
    expect(integerOf('9E+29')).toBe(9n * 10n ** 29n);
    expect(integerOf('1.25e3')).toBe(1250n);
    expect(integerOf('-4.5E+27')).toBe(-45n * 10n ** 26n);
    expect(() => integerOf('1.5')).toThrow(/integer/);
    expect(() => integerOf('abc')).toThrow(/number/);
    // 2,900 of revenue and one view, written as DynamoDB might normalise it.
    expect(day.read('2.9000000001E+29')).toEqual([2900, 0, 0, 0, 1]);
    expect(day.read('-2.9E+29')).toEqual([-2900, 0, 0, 0, 0]);
  });
});
