import { runDueSessions, type DueDeps } from '#core/live-sessions/due.ts';
import { sessionDueDeps } from '#functions/composition/deps-live-sessions.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';
import { scopedLog } from '#middleware/logger.ts';

/**
 * Every minute, by EventBridge Scheduler, then on its own queue (decision 0033): the live sessions with work due (their
 * index, a page at a time; core/live-sessions/due.ts): each session's reminder run started an hour before it starts
 * (the 'session-mail' job sends the emails), and a change or cancellation the provider was down for or refused tried
 * again until the provider agrees.
 */
const log = scopedLog({ job: 'sessions-due' });

/** The job's work; tests replace some of its dependencies (the clock, the reminder runs' queue). */
export const work = (_remainingMs: () => number, replaced: Partial<DueDeps> = {}) =>
  runDueSessions({ ...sessionDueDeps((message, fields) => log.warn(message, fields)), ...replaced });

export const handler = slicedJob('sessions-due', (remainingMs) => work(remainingMs));
