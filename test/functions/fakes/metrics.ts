import type { BusinessMetric, Metrics } from '#core/ports.ts';

/** Remembers every metric recorded, in order. */
export const memoryMetrics = () => {
  const recorded: { metric: BusinessMetric; value: number }[] = [];
  const metrics: Metrics & { recorded: typeof recorded; total(metric: BusinessMetric): number } = {
    recorded,
    record(metric, value = 1) {
      recorded.push({ metric, value });
    },
    total: (metric) => recorded.filter((r) => r.metric === metric).reduce((sum, r) => sum + r.value, 0),
  };
  return metrics;
};
