import { NumberValue } from '@aws-sdk/lib-dynamodb';

/**
 * Several counters in one DynamoDB number, so that an item holding a year of daily figures stays one attribute a day
 * (DynamoDB Local's reads, the SDK's parsing and the items' size all grow with the attributes). A packed number is
 * `top * 10^(sum of widths) + ... + low[1] * 10^width[0] + low[0]`: each low counter has a fixed number of decimal
 * digits and must stay in [0, 10^width); the top one is signed and unbounded but for the 38 significant digits of a
 * DynamoDB number. ADD of packed deltas is exact: the sum of packed values is the packed sums, as long as each low
 * counter stays in its range (a day's sales under a million...). Values travel as strings (NumberValue), never as JS
 * numbers, which would lose digits past 2^53.
 */
export interface PackedCodec {
  /** The ADD value for a move of the top counter and the low ones (in the order of the widths). */
  delta(top: number, ...lows: number[]): NumberValue;
  /** A stored value (its DynamoDB `N` string; undefined = all zero) as `[top, ...lows]`. */
  read(stored: string | undefined): number[];
}

/** A DynamoDB number's text as an exact integer, in whichever form it comes (`1200`, `-5`, `1.2E+3`). */
export const integerOf = (text: string): bigint => {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!match || (match[2] === '' && !match[3])) throw new Error(`not a number: ${text}`);
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const shift = Number(exponent) - fraction.length;
  const digits = BigInt(`${whole}${fraction}` || '0');
  if (shift < 0 && digits % 10n ** BigInt(-shift) !== 0n) throw new Error(`not an integer: ${text}`);
  const value = shift >= 0 ? digits * 10n ** BigInt(shift) : digits / 10n ** BigInt(-shift);
  return sign === '-' ? -value : value;
};

export const packedCodec = (widths: readonly number[]): PackedCodec => {
  const lowDigits = widths.reduce((sum, w) => sum + w, 0);
  const scales = widths.map((_, i) => 10n ** BigInt(widths.slice(0, i).reduce((sum, w) => sum + w, 0)));
  const divisors = widths.map((width) => 10n ** BigInt(width));
  const topScale = 10n ** BigInt(lowDigits);
  /** Plain non-negative digits (what DynamoDB answers for these): the counters are slices of the text. */
  const sliced = (digits: string): number[] => {
    const padded = digits.padStart(lowDigits + 1, '0');
    const lows: number[] = [];
    let end = padded.length;
    for (const width of widths) {
      lows.push(Number(padded.slice(end - width, end)));
      end -= width;
    }
    return [Number(padded.slice(0, end)), ...lows];
  };
  return {
    delta(top, ...lows) {
      const value = lows.reduce((sum, low, i) => sum + BigInt(low) * scales[i]!, BigInt(top) * topScale);
      return NumberValue.from(value.toString());
    },
    read(stored) {
      if (stored === undefined) return [0, ...widths.map(() => 0)];
      if (/^\d+$/.test(stored)) return sliced(stored);
      const value = integerOf(stored);
      if (value >= 0n) return sliced(value.toString());
      // Floor division: the low counters are never negative, whatever the sign of the top one.
      let top = value / topScale;
      if (value % topScale !== 0n) top -= 1n;
      let rest = value - top * topScale;
      const lows = divisors.map((divisor) => {
        const low = rest % divisor;
        rest /= divisor;
        return Number(low);
      });
      return [Number(top), ...lows];
    },
  };
};
