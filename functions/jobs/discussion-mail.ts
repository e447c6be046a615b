import { runDiscussionMail, type DiscussionMailDeps } from '#core/comments/mail.ts';
import { discussionMailDeps } from '#functions/composition/deps-comments.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';
import { scopedLog } from '#middleware/logger.ts';

/**
 * Every minute, by EventBridge Scheduler, then on its own queue (decision 0033): the discussions' reply notices and
 * creators' digests that are due (core/comments/mail.ts), each queued once for the mail sender, whose run it starts.
 */
const log = scopedLog({ job: 'discussion-mail' });

/** The job's work; tests replace some of its dependencies (the clock). */
export const work = (_remainingMs: () => number, replaced: Partial<DiscussionMailDeps> = {}) =>
  runDiscussionMail({ ...discussionMailDeps((message, fields) => log.warn(message, fields)), ...replaced });

export const handler = slicedJob('discussion-mail', (remainingMs) => work(remainingMs));
