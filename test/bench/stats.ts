/** Order statistics over raw samples (nearest-rank), so medians are not rounded to a histogram's buckets. */
export const percentile = (samples: readonly number[], p: number): number => {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
};

export const median = (samples: readonly number[]): number => percentile(samples, 50);

export const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
export const ms = (value: number): string => `${value.toFixed(value < 10 ? 2 : 1)} ms`;
