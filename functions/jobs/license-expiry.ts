import { endExpiredLicenses } from '#core/licenses/licenses.ts';
import { clock, enrollmentRepository, licenseRepository } from '#functions/composition/deps.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';

/**
 * Daily, by EventBridge Scheduler, then on its own queue (decision 0033): the team licences past their end date are
 * ended, their seat holders' access with them (progress kept), a big licence's seats in a lane of their own. Each
 * once: a slice delivered again, a double delivery or an overlapping run finds them ended.
 */
export const work = (_remainingMs: () => number) => endExpiredLicenses({ licenses: licenseRepository(), enrollments: enrollmentRepository(), clock });

export const handler = slicedJob('license-expiry', work);
