import { membershipRepository } from '#functions/composition/deps-memberships.ts';
import { createHash } from 'node:crypto';
import { envelopeCipher } from '#adapters/envelope-cipher.ts';
import { sqsSliceQueue } from '#adapters/sqs-slice-queue.ts';
import { connectedCredentials } from '#core/integrations/connections.ts';
import { firstSlice } from '#core/jobs/slices.ts';
import type { SliceQueue } from '#core/jobs/ports.ts';
import type { DueDeps } from '#core/live-sessions/due.ts';
import type { SessionMailDeps } from '#core/live-sessions/invitations.ts';
import { SESSION_MAIL_JOB, sessionMailRun, type MeetingCredentialSource, type SessionMailRuns, type SessionRepository } from '#core/live-sessions/ports.ts';
import { meetingProviders } from '#functions/composition/meeting-providers.ts';
import type { SessionDeps } from '#core/live-sessions/sessions.ts';
import type { SecretCipher } from '#core/ports.ts';
import { liveCourseTitles } from '#data/courses.ts';
import { enrollmentLearnerPage } from '#data/enrollments.ts';
import { dynamoSessions } from '#data/live-sessions.ts';
import { queueSessionMail } from '#data/session-mail.ts';
import { integrationRepository } from '#functions/composition/deps-integrations.ts';
import { appOrigin, clock, courseRepository, enrollmentRepository, ids, licenseReader, licenseRepository, mailSchool } from '#functions/composition/deps.ts';
import { required } from '#functions/config.ts';
import { logger } from '#middleware/logger.ts';


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
  mailRuns: sessionMailRuns(),
  log: (message, fields) => logger.warn(message, fields),
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

/**
 * Who a session's calendar files name as organiser (the platform's sender) and the domain of their UIDs (its host).
 * MAIL_FROM may carry a display name ('Course Platform <no-reply@…>'): the ORGANIZER's mailto takes the address alone.
 */
const calendarIdentity = () => {
  const from = required('MAIL_FROM');
  const named = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(from);
  return { organizer: { name: named?.[1] || 'Course Platform', email: named?.[2] ?? from.trim() }, uidDomain: new URL(appOrigin()).hostname };
};

/** The learner's sessions and calendar files: the platform's sender is the files' organiser, its host their UIDs' domain. */
export const learnerSessionDeps = () => ({
  enrollments: enrollmentRepository(),
  licenses: licenseReader(), memberships: membershipRepository(),
  sessions: sessionRepository(),
  clock,
  calendar: calendarIdentity(),
});

/**
 * The session emails (the 'session-mail' job and the stream's late enrolees): the session, the course's title, its
 * enrolments, the claim and queued email in one transaction, and a run of the mail sender started at once.
 */
export const sessionMailDeps = (): SessionMailDeps => ({
  store: {
    session: (sessionId) => sessionRepository().find(sessionId),
    courseTitle: async (courseId) => (await liveCourseTitles([courseId])).get(courseId),
    learners: enrollmentLearnerPage,
    queue: queueSessionMail,
    upcoming: (courseId, now) => sessionRepository().upcomingByCourse(courseId, now),
  },
  ids,
  clock,
  calendar: calendarIdentity(),
  mailSchool,
  startSender: (key) => sqsSliceQueue().send([firstSlice('mail-sender', `mail-sender@${key}`)]),
  log: (message, fields) => logger.warn(message, fields),
});

/** The leader's team sessions: their licences and the sessions of the courses these cover (no calendar file, no sender). */
export const leaderSessionDeps = () => ({ licenses: licenseRepository(), sessions: sessionRepository(), clock });
