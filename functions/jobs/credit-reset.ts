import type { ScheduledEvent } from 'aws-lambda';
import { resetDueAccounts } from '#core/credits/credits.ts';
import { clock, creditRepository } from '#functions/composition/deps.ts';
import { invocation } from '#middleware/invocation.ts';
import { jobs } from '#functions/routes.ts';

/**
 * Monthly AI-credit reset, run by EventBridge Scheduler (hourly: an account is reset within the hour its period
 * ends). Keyed by period, so a double delivery or an overlapping run applies nothing twice.
 */
export const handler = (event: Partial<ScheduledEvent> = {}): Promise<{ reset: number; skipped: number }> =>
  invocation({ job: jobs[0].name }, async (log) => {
    const result = await resetDueAccounts({ credits: creditRepository(), clock });
    log.info('credit reset', { scheduledAt: event.time, ...result });
    return result;
  });
