import { NumberValue } from '@aws-sdk/lib-dynamodb';

/**
 * Several counters in one DynamoDB number, so that an item holding a year of daily figures stays one attribute a day
 * (DynamoDB Local's reads, and the items' size, grow with the attributes). A packed number is
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

export const packedCodec = (widths: readonly number[]): PackedCodec => {
  const scales = widths.map((_, i) => 10n ** BigInt(widths.slice(0, i).reduce((sum, w) => sum + w, 0)));
  const topScale = 10n ** BigInt(widths.reduce((sum, w) => sum + w, 0));
  return {
    delta(top, ...lows) {
      const value = lows.reduce((sum, low, i) => sum + BigInt(low) * scales[i]!, BigInt(top) * topScale);
      return NumberValue.from(value.toString());
    },
    read(stored) {
      const value = BigInt(stored ?? '0');
      // Floor division: the low counters are never negative, whatever the sign of the top one.
      let top = value / topScale;
      if (value % topScale !== 0n && value < 0n) top -= 1n;
      let rest = value - top * topScale;
      const lows = widths.map((width) => {
        const low = rest % 10n ** BigInt(width);
        rest /= 10n ** BigInt(width);
        return Number(low);
      });
      return [Number(top), ...lows];
    },
  };
};
