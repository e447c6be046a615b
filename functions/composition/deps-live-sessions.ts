import { createHash } from 'node:crypto';
import { envelopeCipher } from '#adapters/envelope-cipher.ts';
import { sqsSliceQueue } from '#adapters/sqs-slice-queue.ts';
import { connectedCredentials } from '#core/integrations/connections.ts';
import { firstSlice } from '#core/jobs/slices.ts';
import type { SliceQueue } from '#core/jobs/ports.ts';
import type { DueDeps } from '#core/live-sessions/due.ts';
import { SESSION_MAIL_JOB, sessionMailRun, type MeetingCredentialSource, type SessionMailRuns, type SessionRepository } from '#core/live-sessions/ports.ts';
import { meetingProviders } from '#functions/composition/meeting-providers.ts';
import type { SessionDeps } from '#core/live-sessions/sessions.ts';
import type { SecretCipher } from '#core/ports.ts';
import { dynamoSessions } from '#data/live-sessions.ts';
import { integrationRepository } from '#functions/composition/deps-integrations.ts';
import { appOrigin, clock, courseRepository, enrollmentRepository, ids, licenseRepository } from '#functions/composition/deps.ts';
import { required } from '#functions/config.ts';


/** The live sessions' use cases: the course, the sessions, and a provider reached with the creator's unsealed credentials. */
let sessions: SessionRepository | undefined;
let cipher: SecretCipher | undefined;

const sessionRepository = (): SessionRepository => (sessions ??= dynamoSessions());

/** The session an Idempotency-Key stands for: the same creator and key, the same id (so a retry finds it). */
const sessionIdFor = (creatorId: string, key: string): string => `ses${createHash('sha256').update(`${creatorId}\n${key}`).digest('hex').slice(0, 29)}`;

const credentials: MeetingCredentialSource = {
  credentialsFor: (creatorId, provider) => connectedCredentials({ integrations: integrationRepository(), cipher: (cipher ??= envelopeCipher()) }, creatorId, provider),
};

export const sessionDeps = (): SessionDeps => ({
  courses: courseRepository(),
  sessions: sessionRepository(),
  providers: meetingProviders(),
  credentials,
  ids,
  clock,
  sessionIdFor,
});

/**
 * Starts a session's 'session-mail' run (its first slice on that job's queue; the run's identity makes a second start
 * the same run): the function needs `queues: ['session-mail']` in functions/routes.ts.
 */
export const sessionMailRuns = (queue: () => SliceQueue = sqsSliceQueue): SessionMailRuns => ({
  async start(session, mail) {
    const { run, input } = sessionMailRun(session, mail);
    await queue().send([firstSlice(SESSION_MAIL_JOB, run, { ...input })]);
  },
});

/** The 'sessions-due' job: the due index, the providers with the creators' credentials, the reminder runs. */
export const sessionDueDeps = (warn: DueDeps['warn']): DueDeps => ({
  sessions: sessionRepository(),
  providers: meetingProviders(),
  credentials,
  mailRuns: sessionMailRuns(),
  clock,
  warn,
});

/** Reading a course's sessions: no provider, no secret. */
export const sessionReadDeps = () => ({ courses: courseRepository(), sessions: sessionRepository() });

/** The learner's sessions and calendar files: the platform's sender is the files' organiser, its host their UIDs' domain. */
export const learnerSessionDeps = () => ({
  enrollments: enrollmentRepository(),
  sessions: sessionRepository(),
  clock,
  calendar: { organizer: { name: 'Course Platform', email: required('MAIL_FROM') }, uidDomain: new URL(appOrigin()).hostname },
});

/** The leader's team sessions: their licences and the sessions of the courses these cover (no calendar file, no sender). */
export const leaderSessionDeps = () => ({ licenses: licenseRepository(), sessions: sessionRepository(), clock });
