import type { ScheduledEvent } from 'aws-lambda';
import { logger } from '../middleware/logger.ts';

/**
 * Monthly AI-credit reset, run by EventBridge Scheduler. The credit ledger arrives with the billing issue; until
 * then the job runs on its schedule and resets nothing.
 */
export const handler = async (event: Partial<ScheduledEvent> = {}): Promise<{ reset: number }> => {
  logger.info('credit reset', { scheduledAt: event.time, reset: 0 });
  return { reset: 0 };
};
