import type { ScheduledEvent } from 'aws-lambda';
import { approveDueCommissions } from '#core/affiliates/affiliates.ts';
import { affiliateRepository, clock } from '#functions/composition/deps.ts';
import { invocation } from '#middleware/invocation.ts';

/**
 * Daily, by EventBridge Scheduler: the affiliate commissions whose refund hold is over -> approved, each once (a
 * conditional write: a double delivery or an overlapping run approves nothing twice).
 */
export const handler = (event: Partial<ScheduledEvent> = {}): Promise<{ approved: number; skipped: number }> =>
  invocation({ job: 'commission-approval' }, async (log) => {
    const result = await approveDueCommissions({ affiliates: affiliateRepository(), clock });
    log.info('commission approval', { scheduledAt: event.time, ...result });
    return result;
  });
