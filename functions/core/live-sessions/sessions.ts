import {
  SESSION_DAYS_AHEAD_MAX,
  UPCOMING_SESSIONS_PER_COURSE_MAX,
  type LearnerSession,
  type LiveSession,
  type ScheduleSessionBody,
  type UpdateSessionBody,
} from '#contracts/live-sessions.ts';
import { ConflictError, IntegrationNotConnectedError, NotFoundError, ProviderUnavailableError, ValidationError } from '#core/errors.ts';
import type {
  MeetingCredentialSource,
  MeetingDetails,
  MeetingProvider,
  MeetingProviders,
  ProviderMeeting,
  ProviderPending,
  SessionMailRuns,
  SessionRepository,
  StoredSession,
} from '#core/live-sessions/ports.ts';
import { sessionCalendar } from '#core/live-sessions/calendar.ts';
import { licenseGivesAccess } from '#core/licenses/access.ts';
import { courseAccess, type AccessSources } from '#core/access/access.ts';
import type { Clock, CourseRepository, EnrollmentRepository, Ids, LicenseRepository } from '#core/ports.ts';

/**
 * Live sessions (issue 30 point 2 and 4): scheduled at the provider first, then saved, so that nothing is half made. A
 * provider that refuses or fails a schedule leaves nothing saved; a meeting whose save failed is deleted at once, or
 * adopted by the retry that carries the same Idempotency-Key (`findMeeting`). A change or a cancellation goes to the
 * provider first too, but one the provider refuses or fails is saved all the same (the platform's session is the
 * truth: its learners are told), with the provider's work pending (`providerPending`), which the 'sessions-due' job
 * (core/live-sessions/due.ts) retries until the provider agrees.
 */

export const DEFAULT_TIME_ZONE = 'Europe/London';
export const COURSE_NOT_FOUND = 'Course not found.';
export const SESSION_NOT_FOUND = 'Session not found.';
export const SESSION_IN_PAST = 'Choose a start time in the future.';
export const SESSION_TOO_FAR = `Choose a start time within the next ${SESSION_DAYS_AHEAD_MAX} days.`;
export const TOO_MANY_SESSIONS = `A course holds at most ${UPCOMING_SESSIONS_PER_COURSE_MAX} upcoming sessions. Cancel one, or wait for one to end.`;
export const SESSION_CANCELLED = 'This session was cancelled.';
export const SESSION_ENDED = 'This session has ended: it can no longer be changed.';
export const SESSION_CHANGED = 'This session was changed meanwhile. Reload it and try again.';

export interface SessionDeps {
  courses: Pick<CourseRepository, 'getOutline'>;
  sessions: SessionRepository;
  providers: MeetingProviders;
  credentials: MeetingCredentialSource;
  ids: Ids;
  clock: Clock;
  /** The session id an Idempotency-Key stands for (the same key, the same session). */
  sessionIdFor: (creatorId: string, key: string) => string;
  /** Starts the run that emails the course's learners this version of the session (the 'session-mail' job). */
  mailRuns: SessionMailRuns;
  log: (message: string, fields: Record<string, unknown>) => void;
}

const DAY_MS = 86_400_000;

/**
 * The learners told, after the save: the 'session-mail' run of the saved version started (its invitation,
 * update or cancellation). A start that fails is logged and never fails the request: the session is saved and the
 * provider has it. The learners then hear of this version when the creator's retry of the request (the same
 * Idempotency-Key of a schedule) or the session's next change starts a run, and learners enrolling later are invited
 * all the same (the table's stream); the reminder an hour before goes to every learner whatever happened here.
 */
const tellLearners = async (deps: Pick<SessionDeps, 'mailRuns' | 'log'>, session: StoredSession): Promise<void> => {
  await deps.mailRuns.start(session, 'invitation').catch((error: unknown) =>
    deps.log('session saved but its emails were not started', { sessionId: session.id, sequence: session.sequence, error: String(error) }),
  );
};

export const sessionView = (s: StoredSession): LiveSession => ({
  id: s.id,
  courseId: s.courseId,
  title: s.title,
  description: s.description,
  startsAt: s.startsAt,
  durationMinutes: s.durationMinutes,
  provider: s.provider,
  joinUrl: s.joinUrl,
  hostUrl: s.hostUrl,
  status: s.status,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
  providerSync: s.providerPending ? 'pending' : 'done',
  ...(s.providerPending ? { providerError: s.providerPending.error } : {}),
});

export const endsAt = (s: Pick<StoredSession, 'startsAt' | 'durationMinutes'>): number => Date.parse(s.startsAt) + s.durationMinutes * 60_000;

/** The provider's minutes before trying again after `tries` failed attempts (then hourly). */
export const RETRY_MINUTES = [1, 2, 5, 10, 30] as const;
const RETRY_LATER_MINUTES = 60;
/** The job gives up this long after the session's end, keeping the last error. */
export const GIVE_UP_AFTER_END_MS = DAY_MS;

/** A refusal (IntegrationNotConnectedError) or a failure (ProviderUnavailableError) of the provider: the work waits. */
export const isProviderRefusal = (error: unknown): error is IntegrationNotConnectedError | ProviderUnavailableError =>
  error instanceof IntegrationNotConnectedError || error instanceof ProviderUnavailableError;

/**
 * The provider's work after `tries` failed attempts, the last at `now`: tried again after 1, 2, 5, 10, 30 minutes, then
 * hourly, until a day after the session's end, when it stops (nextAt null) with the error kept.
 */
export const pendingAfter = (
  session: Pick<StoredSession, 'startsAt' | 'durationMinutes'>,
  action: ProviderPending['action'],
  tries: number,
  error: Error,
  now: Date,
): ProviderPending => {
  const giveUpAt = endsAt(session) + GIVE_UP_AFTER_END_MS;
  const later = now.getTime() + (RETRY_MINUTES[tries - 1] ?? RETRY_LATER_MINUTES) * 60_000;
  return { action, tries, nextAt: now.getTime() >= giveUpAt ? null : new Date(Math.min(later, giveUpAt)).toISOString(), error: error.message };
};

/** The session without provider work pending. */
export const withoutPending = ({ providerPending: _done, ...session }: StoredSession): StoredSession => session;

export const detailsOf = (s: StoredSession): MeetingDetails => ({
  sessionId: s.id,
  title: s.title,
  description: s.description,
  startsAt: s.startsAt,
  durationMinutes: s.durationMinutes,
  timeZone: s.timeZone,
});

/** A start time the creator may choose: ahead of now, within SESSION_DAYS_AHEAD_MAX. */
const checkStart = (startsAt: string, now: Date): void => {
  const at = Date.parse(startsAt);
  if (at <= now.getTime()) throw new ValidationError(SESSION_IN_PAST, [{ path: 'startsAt', code: 'custom', message: SESSION_IN_PAST }]);
  if (at > now.getTime() + SESSION_DAYS_AHEAD_MAX * DAY_MS) throw new ValidationError(SESSION_TOO_FAR, [{ path: 'startsAt', code: 'custom', message: SESSION_TOO_FAR }]);
};

/** The creator's own course (404 for anyone else's, as for a course that does not exist). */
const ownCourse = async (deps: Pick<SessionDeps, 'courses'>, creatorId: string, courseId: string) => {
  const course = await deps.courses.getOutline(courseId);
  if (!course || course.creatorId !== creatorId) throw new NotFoundError(COURSE_NOT_FOUND);
  return course;
};

/** The creator's session of their course (404 otherwise). */
const ownSession = async (deps: Pick<SessionDeps, 'courses' | 'sessions'>, creatorId: string, courseId: string, sessionId: string): Promise<StoredSession> => {
  await ownCourse(deps, creatorId, courseId);
  const session = await deps.sessions.get(courseId, sessionId);
  if (!session || session.creatorId !== creatorId) throw new NotFoundError(SESSION_NOT_FOUND);
  return session;
};

export const providerFor = async (deps: Pick<SessionDeps, 'providers' | 'credentials'>, creatorId: string, provider: StoredSession['provider']): Promise<MeetingProvider> =>
  deps.providers.connect(creatorId, await deps.credentials.credentialsFor(creatorId, provider));

/** A meeting made for a session that was not saved: removed, whatever else failed (the first failure is what counts). */
const discard = async (provider: MeetingProvider, meeting: ProviderMeeting): Promise<void> => {
  await provider.deleteMeeting(meeting.meetingId).catch(() => undefined);
};

/**
 * POST /api/courses/{courseId}/sessions: the creator's course; a start ahead; room among the course's upcoming
 * sessions; the provider connected (409 INTEGRATION_NOT_CONNECTED with its reason); the meeting made there (an
 * earlier attempt's adopted when the Idempotency-Key is the same), then the session saved, or the meeting deleted.
 */
export const scheduleSession = async (
  deps: SessionDeps,
  input: { creatorId: string; courseId: string; body: ScheduleSessionBody; idempotencyKey?: string | undefined },
): Promise<LiveSession> => {
  const { creatorId, courseId, body } = input;
  await ownCourse(deps, creatorId, courseId);
  const now = deps.clock.now();
  const id = input.idempotencyKey ? deps.sessionIdFor(creatorId, input.idempotencyKey) : deps.ids.newId();
  const saved = await deps.sessions.get(courseId, id);
  if (saved) {
    // A retry of a schedule that was saved: its run started again (one run per version), should the first start have failed.
    if (saved.status === 'scheduled') await tellLearners(deps, saved);
    return sessionView(saved);
  }
  checkStart(body.startsAt, now);
  if ((await deps.sessions.upcomingByCourse(courseId, now.toISOString())).length >= UPCOMING_SESSIONS_PER_COURSE_MAX) throw new ConflictError(TOO_MANY_SESSIONS);

  const provider = await providerFor(deps, creatorId, body.provider);
  const draft: Omit<StoredSession, 'meetingId' | 'joinUrl' | 'hostUrl'> = {
    id,
    courseId,
    creatorId,
    title: body.title,
    description: body.description ?? '',
    startsAt: new Date(body.startsAt).toISOString(),
    durationMinutes: body.durationMinutes,
    provider: body.provider,
    timeZone: body.timeZone ?? DEFAULT_TIME_ZONE,
    status: 'scheduled',
    sequence: 0,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  const details = detailsOf({ ...draft, meetingId: '', joinUrl: '', hostUrl: '' });
  const meeting = (input.idempotencyKey ? await provider.findMeeting(id) : undefined) ?? (await provider.createMeeting(details));
  const session: StoredSession = { ...draft, ...meeting };
  let outcome: 'created' | 'exists';
  try {
    outcome = await deps.sessions.create(session);
  } catch (error) {
    await discard(provider, meeting);
    throw error;
  }
  if (outcome === 'created') {
    await tellLearners(deps, session);
    return sessionView(session);
  }
  // Another attempt with this key saved first: its meeting is the session's; ours (if another) goes.
  const winner = await deps.sessions.get(courseId, id);
  if (winner && winner.meetingId !== meeting.meetingId) await discard(provider, meeting);
  if (!winner) throw new ConflictError(SESSION_CHANGED);
  return sessionView(winner);
};

/**
 * PATCH /api/courses/{courseId}/sessions/{sessionId}: a scheduled session that has not ended; the provider changes
 * the meeting first (one it no longer has is made again), then the session is saved with its SEQUENCE raised. A
 * provider that refuses or fails: saved all the same, the change pending at the provider (`providerSync: 'pending'`).
 */
export const updateSession = async (
  deps: SessionDeps,
  input: { creatorId: string; courseId: string; sessionId: string; body: UpdateSessionBody },
): Promise<LiveSession> => {
  const before = await ownSession(deps, input.creatorId, input.courseId, input.sessionId);
  const now = deps.clock.now();
  if (before.status === 'cancelled') throw new ConflictError(SESSION_CANCELLED);
  if (endsAt(before) <= now.getTime()) throw new ConflictError(SESSION_ENDED);
  if (input.body.startsAt !== undefined) checkStart(input.body.startsAt, now);
  const changed: StoredSession = withoutPending({
    ...before,
    ...(input.body.title !== undefined ? { title: input.body.title } : {}),
    ...(input.body.startsAt !== undefined ? { startsAt: new Date(input.body.startsAt).toISOString() } : {}),
    ...(input.body.durationMinutes !== undefined ? { durationMinutes: input.body.durationMinutes } : {}),
    ...(input.body.timeZone !== undefined ? { timeZone: input.body.timeZone } : {}),
    sequence: before.sequence + 1,
    updatedAt: now.toISOString(),
  });
  let after = changed;
  try {
    const provider = await providerFor(deps, input.creatorId, before.provider);
    if ((await provider.updateMeeting(before.meetingId, detailsOf(changed))) === 'gone') {
      const meeting = await provider.createMeeting(detailsOf(changed));
      after = { ...changed, ...meeting };
    }
  } catch (error) {
    if (!isProviderRefusal(error)) throw error;
    after = { ...changed, providerPending: pendingAfter(changed, 'update', 1, error, now) };
  }
  if ((await deps.sessions.save(after, before.sequence)) === 'changed') throw new ConflictError(SESSION_CHANGED);
  await tellLearners(deps, after);
  return sessionView(after);
};

/**
 * DELETE /api/courses/{courseId}/sessions/{sessionId}: the meeting deleted at the provider, then the session kept as
 * cancelled (its learners are told; it leaves their lists). A provider that refuses or fails: cancelled all the same,
 * the deletion pending at the provider; the answer is then the session (`providerSync: 'pending'`), else nothing (204).
 * Cancelling a cancelled session is done already.
 */
export const cancelSession = async (deps: SessionDeps, input: { creatorId: string; courseId: string; sessionId: string }): Promise<LiveSession | undefined> => {
  const before = await ownSession(deps, input.creatorId, input.courseId, input.sessionId);
  if (before.status === 'cancelled') {
    // A retry of the cancellation: its run started again (one run per version), should the first start have failed.
    await tellLearners(deps, before);
    return undefined;
  }
  const now = deps.clock.now();
  const cancelled: StoredSession = withoutPending({ ...before, status: 'cancelled', sequence: before.sequence + 1, updatedAt: now.toISOString() });
  let after = cancelled;
  try {
    const provider = await providerFor(deps, input.creatorId, before.provider);
    await provider.deleteMeeting(before.meetingId);
  } catch (error) {
    if (!isProviderRefusal(error)) throw error;
    after = { ...cancelled, providerPending: pendingAfter(cancelled, 'delete', 1, error, now) };
  }
  if ((await deps.sessions.save(after, before.sequence)) === 'changed') throw new ConflictError(SESSION_CHANGED);
  await tellLearners(deps, after);
  return after.providerPending ? sessionView(after) : undefined;
};

/** GET /api/courses/{courseId}/sessions: the course's sessions, soonest first (the screen splits upcoming and past). */
export const listCourseSessions = async (deps: Pick<SessionDeps, 'courses' | 'sessions'>, input: { creatorId: string; courseId: string }): Promise<{ items: LiveSession[] }> => {
  await ownCourse(deps, input.creatorId, input.courseId);
  return { items: (await deps.sessions.listByCourse(input.courseId)).map(sessionView) };
};

/** Sessions soonest first (the same start: by id, so that the order is stable). */
const soonestFirst = (a: LearnerSession, b: LearnerSession): number => a.startsAt.localeCompare(b.startsAt) || a.id.localeCompare(b.id);

/**
 * GET /api/learner/sessions?courseId=: the scheduled sessions of the learner's active courses that have not ended,
 * soonest first, without the host link; with `courseId` (the course player), that course's only (none when the
 * learner is not actively enrolled in it).
 */
export const learnerSessions = async (
  deps: { enrollments: Pick<EnrollmentRepository, 'listByLearner'>; sessions: Pick<SessionRepository, 'upcomingByCourse'>; clock: Clock },
  learnerId: string,
  filter: { courseId?: string | undefined } = {},
): Promise<{ items: LearnerSession[] }> => {
  const now = deps.clock.now().toISOString();
  const enrollments = (await deps.enrollments.listByLearner(learnerId)).filter((e) => filter.courseId === undefined || e.courseId === filter.courseId);
  const perCourse = await Promise.all(
    enrollments.map(async (e) => (await deps.sessions.upcomingByCourse(e.courseId, now)).map((s) => learnerSessionView(s, e.courseTitle))),
  );
  return { items: perCourse.flat().sort(soonestFirst) };
};

/**
 * GET /api/leader/sessions: the scheduled sessions that have not ended of the courses the leader's licences cover
 * while they give access (a course of several licences once), soonest first, as learners see them: the join link (the
 * leader may attend too), never the host link.
 */
export const leaderSessions = async (
  deps: { licenses: Pick<LicenseRepository, 'listByLeader'>; sessions: Pick<SessionRepository, 'upcomingByCourse'>; clock: Clock },
  leaderId: string,
): Promise<{ items: LearnerSession[] }> => {
  const now = deps.clock.now();
  const courses = new Map<string, string>();
  for (const license of await deps.licenses.listByLeader(leaderId)) {
    if (licenseGivesAccess(license, now)) courses.set(license.courseId, license.courseTitle);
  }
  const perCourse = await Promise.all(
    [...courses].map(async ([courseId, courseTitle]) => (await deps.sessions.upcomingByCourse(courseId, now.toISOString())).map((s) => learnerSessionView(s, courseTitle))),
  );
  return { items: perCourse.flat().sort(soonestFirst) };
};

/** A session as its learners see it: the creator's view without the host link, status or times of change. */
export const learnerSessionView = (s: StoredSession, courseTitle: string): LearnerSession => {
  const { hostUrl: _host, status: _status, createdAt: _created, updatedAt: _updated, providerSync: _sync, providerError: _error, ...seen } = sessionView(s);
  return { ...seen, courseTitle };
};

/** Who a calendar file names as organiser and the domain of its UIDs (the platform's sending address and host). */
export interface CalendarIdentity {
  organizer: { name: string; email: string };
  uidDomain: string;
}

/**
 * GET /api/learner/sessions/{sessionId}/calendar.ics: the session's calendar file for a learner who may open its course
 * (core/access/access.ts: their enrolment, or a seat while its licence gives access; 404 for anyone else, as for a
 * session that does not exist); a cancelled session's file cancels it.
 */
export const learnerSessionCalendar = async (
  deps: AccessSources & { sessions: Pick<SessionRepository, 'find'>; calendar: CalendarIdentity },
  input: { learnerId: string; sessionId: string },
): Promise<string> => {
  const session = await deps.sessions.find(input.sessionId);
  const access = session && (await courseAccess(deps, input.learnerId, session.courseId));
  if (!session || !access?.open) throw new NotFoundError(SESSION_NOT_FOUND);
  return sessionCalendar(session, { courseTitle: access.enrollment.courseTitle, ...deps.calendar });
};
