import { DRIP_DUE_JOB, runDripDue, type DripDueDeps } from '#core/enrollments/drip-notices.ts';
import { dripDueDeps } from '#functions/composition/deps-drip.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';
import { scopedLog } from '#middleware/logger.ts';

/**
 * Every minute, by EventBridge Scheduler, then on its own queue (decision 0033): the drip plans due (their index, a page
 * at a time; core/enrollments/drip-notices.ts): each learner's "A new lesson is ready" emails queued exactly once as
 * their lessons open, and the plan moved to its next opening; the mail sender's run started for what was queued.
 */
const log = scopedLog({ job: DRIP_DUE_JOB });

/** The job's work; tests replace some of its dependencies (the clock, the sender's start). */
export const work = (_remainingMs: () => number, replaced: Partial<DripDueDeps> = {}) =>
  runDripDue({ ...dripDueDeps((message, fields) => log.warn(message, fields)), ...replaced });

export const handler = slicedJob(DRIP_DUE_JOB, (remainingMs) => work(remainingMs));
