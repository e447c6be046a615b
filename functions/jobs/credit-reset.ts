import type { ScheduledEvent } from 'aws-lambda';
import { resetDueAccounts } from '../core/credits/credits.ts';
import { clock, creditRepository } from '../deps.ts';
import { logger } from '../middleware/logger.ts';

/**
 * Monthly AI-credit reset, run by EventBridge Scheduler (hourly: an account is reset within the hour its period
 * ends). Keyed by period, so a double delivery or an overlapping run applies nothing twice.
 */
export const handler = async (event: Partial<ScheduledEvent> = {}): Promise<{ reset: number; skipped: number }> => {
  const result = await resetDueAccounts({ credits: creditRepository(), clock });
  logger.info('credit reset', { scheduledAt: event.time, ...result });
  return result;
};
