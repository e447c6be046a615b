import { approveDueCommissions } from '#core/affiliates/affiliates.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';
import { affiliateRepository, clock } from '#functions/composition/deps.ts';

/**
 * Daily, by EventBridge Scheduler, then on its own queue (decision 0033): the affiliate commissions whose refund hold
 * is over -> approved, each once (a conditional write: a slice delivered again or an overlapping run approves nothing
 * twice), a page of the due index at a time, slice after slice until none is due.
 */
export const work = (_remainingMs: () => number) => approveDueCommissions({ affiliates: affiliateRepository(), clock });

export const handler = slicedJob('commission-approval', work);
