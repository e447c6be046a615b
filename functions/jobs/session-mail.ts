import { sessionMailWork } from '#core/live-sessions/invitations.ts';
import { SESSION_MAIL_JOB } from '#core/live-sessions/ports.ts';
import { sessionMailDeps } from '#functions/composition/deps-live-sessions.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';

/** A session's emails to its course's learners, queued slice by slice (core/live-sessions/invitations.ts). */
export const work = (_remainingMs: () => number) => sessionMailWork(sessionMailDeps());

/** Started only by the session routes (each version's invitation) and the due job (the reminders), through its queue: no schedule. */
export const handler = slicedJob(SESSION_MAIL_JOB, work);
