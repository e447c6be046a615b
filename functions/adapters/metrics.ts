import { Metrics as PowertoolsMetrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { config } from '#functions/config.ts';
import type { BusinessMetric, Metrics } from '#core/ports.ts';
import { SERVICE_NAME } from '#middleware/logger.ts';

export const METRICS_NAMESPACE = 'CoursePlatform';

/** Each business metric with its unit: counts of events, or amounts of credits. */
const units: Record<BusinessMetric, (typeof MetricUnit)[keyof typeof MetricUnit]> = {
  SignUp: MetricUnit.Count,
  CheckoutStarted: MetricUnit.Count,
  SubscriptionStateChanged: MetricUnit.Count,
  CreditsSpent: MetricUnit.Count,
  CreditsPurchased: MetricUnit.Count,
  LandingPageGenerated: MetricUnit.Count,
  AiDraftGenerated: MetricUnit.Count,
  OrderUnfulfilled: MetricUnit.Count,
};

let emf: PowertoolsMetrics | undefined;
let pending = 0;

const powertools = (): PowertoolsMetrics => (emf ??= new PowertoolsMetrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME }));

/**
 * The Metrics port on Powertools Metrics: CloudWatch embedded metric format, written to stdout at the end of the
 * invocation that recorded something (`publishMetrics`). A process told to be silent (LOG_LEVEL=silent: tests, the
 * bench) records nothing, so its output stays clean.
 */
export const businessMetrics: Metrics = {
  record(metric, value = 1) {
    if (config().LOG_LEVEL === 'silent') return;
    powertools().addMetric(metric, units[metric], value);
    pending++;
  },
};

/** Writes what this invocation recorded (nothing, not even a warning, when it recorded nothing). */
export const publishMetrics = (): void => {
  if (pending === 0) return;
  pending = 0;
  powertools().publishStoredMetrics();
};
