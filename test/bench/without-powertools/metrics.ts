/** The bench's "before Powertools" baseline: Metrics' surface as functions/ uses it, doing nothing. */
export const MetricUnit = { Count: 'Count' } as const;
export class Metrics {
  constructor(_options?: unknown) {}
  addMetric(_name: string, _unit: string, _value: number): void {}
  publishStoredMetrics(): void {}
}
