import { runSequenceSender, type SequenceSenderDeps } from '#core/sequences/sender.ts';
import { sequenceSenderDeps } from '#functions/composition/deps-sequences.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';
import { scopedLog } from '#middleware/logger.ts';

/**
 * Every minute, by EventBridge Scheduler, then on its own queue (decision 0033): the email sequences' due steps (their
 * index, a page at a time; core/sequences/sender.ts), each queued once for the mail sender, whose run it starts.
 */
const log = scopedLog({ job: 'sequence-sender' });

/** The job's work; tests replace some of its dependencies (the clock). */
export const work = (_remainingMs: () => number, replaced: Partial<SequenceSenderDeps> = {}) =>
  runSequenceSender({ ...sequenceSenderDeps((message, fields) => log.warn(message, fields)), ...replaced });

export const handler = slicedJob('sequence-sender', (remainingMs) => work(remainingMs));
