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

/**
 * Keeps `inFlight` calls of `send` outstanding for `seconds` (each lane starts the next as its last answers) and
 * times every call: the in-process load of the raw DynamoDB floors.
 */
export const keepInFlight = async (
  send: () => Promise<unknown>,
  seconds: number,
  inFlight: number,
): Promise<{ times: number[]; errors: number; seconds: number }> => {
  const times: number[] = [];
  let errors = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  const lane = async () => {
    while (performance.now() < until) {
      const t0 = performance.now();
      try {
        await send();
        times.push(performance.now() - t0);
      } catch {
        errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  return { times, errors, seconds: (performance.now() - started) / 1000 };
};
