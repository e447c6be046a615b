import { publishMetrics } from '#adapters/metrics.ts';
import { scopedLog, type ScopedLog } from '#middleware/logger.ts';

/**
 * A non-HTTP invocation (a Cognito trigger, a scheduled job): `run` gets a log whose every line carries `keys`, and
 * the invocation's metrics are published when it ends, however it ends. HTTP routes get the same from httpRoute.
 */
export const invocation = async <T>(keys: Record<string, string>, run: (log: ScopedLog) => Promise<T>): Promise<T> => {
  try {
    return await run(scopedLog(keys));
  } finally {
    publishMetrics();
  }
};
