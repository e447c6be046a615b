import { sweepUnnamedUploads, type UnnamedUploadDeps } from '#core/assignments/unnamed-uploads.ts';
import { runDiscussionMail, type DiscussionMailDeps } from '#core/comments/mail.ts';
import { withLane } from '#core/jobs/slices.ts';
import { unnamedUploadDeps } from '#functions/composition/deps-assignments.ts';
import { discussionMailDeps } from '#functions/composition/deps-comments.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';
import { scopedLog } from '#middleware/logger.ts';

/**
 * Every minute, by EventBridge Scheduler, then on its own queue (decision 0033): the discussions' reply notices and
 * creators' digests that are due (core/comments/mail.ts), each queued once for the mail sender, whose run it starts;
 * and, in a lane of its own ('uploads'), the assignment uploads no submission named in time, removed with their bytes
 * (core/assignments/unnamed-uploads.ts): issue 35's due work shares issue 35's schedule.
 */
const log = scopedLog({ job: 'discussion-mail' });

/** The job's work; tests replace some of the dependencies of each part (the clock of each, the sender's start). */
export const work = (_remainingMs: () => number, replaced: Partial<DiscussionMailDeps> = {}, uploads: Partial<UnnamedUploadDeps> = {}) =>
  withLane(runDiscussionMail({ ...discussionMailDeps((message, fields) => log.warn(message, fields)), ...replaced }), 'uploads', async (slice, timeUp) => {
    const { cursor, counts } = await sweepUnnamedUploads({ ...unnamedUploadDeps(), ...uploads }, slice.cursor, timeUp);
    return { ...(cursor === undefined ? {} : { cursor }), counts };
  });

export const handler = slicedJob('discussion-mail', (remainingMs) => work(remainingMs));
