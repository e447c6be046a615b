import type { ScheduledEvent } from 'aws-lambda';
import { endExpiredLicenses } from '#core/licenses/licenses.ts';
import { clock, enrollmentRepository, licenseRepository } from '#functions/composition/deps.ts';
import { invocation } from '#middleware/invocation.ts';

/**
 * Daily, by EventBridge Scheduler: the team licences past their end date are ended, their seat holders' access with
 * them (progress kept). Each once: a double delivery or an overlapping run finds them ended.
 */
export const handler = (event: Partial<ScheduledEvent> = {}): Promise<{ ended: number }> =>
  invocation({ job: 'license-expiry' }, async (log) => {
    const result = await endExpiredLicenses({ licenses: licenseRepository(), enrollments: enrollmentRepository(), clock });
    log.info('licence expiry', { scheduledAt: event.time, ...result });
    return result;
  });
