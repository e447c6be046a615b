/**
 * The ports of live sessions (issue 30, ../shared/API.md "Live sessions through the providers' own APIs"): a meeting
 * made in the creator's own Zoom, Microsoft Teams (Graph) or Google Calendar account. One adapter per provider in
 * functions/adapters (`zoom-meetings.ts`, `teams-meetings.ts`, `google-calendar-meetings.ts`) implements
 * `MeetingProvider`; the use cases never see a token, a URL of the provider or an SDK.
 *
 * Errors an adapter throws (functions/core/errors.ts), and nothing else:
 * - `IntegrationNotConnectedError(provider, reason)`: the provider refused the credentials or the grant (wrong secret,
 *   unknown account, revoked consent, missing scope): the reason in plain words a creator can act on ("Zoom refused
 *   the client secret: check the API Secret of your Server-to-Server OAuth app.");
 * - `ProviderUnavailableError(provider, message)`: the provider is down, timed out (10 s per call) or answered 5xx;
 * - `NotFoundError` from update/delete is never thrown: a meeting already gone is treated as deleted / recreated by the
 *   use case.
 */

export type MeetingProviderName = 'zoom' | 'teams' | 'google';

export const meetingProviderNames: Readonly<Record<MeetingProviderName, string>> = {
  zoom: 'Zoom',
  teams: 'Microsoft Teams',
  google: 'Google Calendar',
};

/** What a provider is told about a session. */
export interface MeetingDetails {
  /**
   * The platform's session id (a ULID): the handle that makes creation idempotent where the provider allows it
   * (Google's client-chosen event id is derived from it; Zoom and Graph carry it in the meeting so a retry can adopt
   * a meeting whose save failed).
   */
  sessionId: string;
  title: string;
  /** Plain text (may be empty). */
  description: string;
  /** ISO 8601 UTC instant. */
  startsAt: string;
  durationMinutes: number;
  /** The creator's IANA time zone (Europe/London by default): how the provider shows the meeting to its host. */
  timeZone: string;
}

/** A meeting as the provider made it. */
export interface ProviderMeeting {
  /** The provider's id of the meeting (Zoom's numeric id as a string, Graph's onlineMeeting/event id, Google's event id). */
  meetingId: string;
  /** Where attendees join. */
  joinUrl: string;
  /** Where the host starts the meeting (Zoom's start_url; Teams' and Meet's join URL when the host joins as any other). */
  hostUrl: string;
}

export interface MeetingProvider {
  readonly provider: MeetingProviderName;
  /** "Connected": a token obtained and one API call that succeeded (the user or calendar read). */
  check(): Promise<void>;
  createMeeting(details: MeetingDetails): Promise<ProviderMeeting>;
  /** The meeting an earlier attempt made for this session, if the provider still has it (adopted on retry). */
  findMeeting(sessionId: string): Promise<ProviderMeeting | undefined>;
  /** Changes title, time or duration. A meeting the provider no longer has answers `'gone'`. */
  updateMeeting(meetingId: string, details: MeetingDetails): Promise<'updated' | 'gone'>;
  /** Deletes the meeting; a meeting already gone counts as deleted. */
  deleteMeeting(meetingId: string): Promise<void>;
}

/** The creator's credentials for one provider, unsealed (only adapters and the integrations use cases see them). */
export type MeetingCredentials =
  | { provider: 'zoom'; accountId: string; clientId: string; clientSecret: string }
  | { provider: 'teams'; tenantId: string; clientId: string; clientSecret: string; organizerEmail: string }
  | { provider: 'google'; refreshToken: string; calendarId: string };

/**
 * Makes the provider client for a creator's credentials. Tokens are cached per creator and credentials until they
 * expire (adapters/token-cache.ts), so a warm function asks the provider for a token once per hour, not per call.
 */
export interface MeetingProviders {
  connect(creatorId: string, credentials: MeetingCredentials): MeetingProvider;
}

/**
 * Google's consent (OAuth 2.0 authorization code with offline access), the one provider a creator connects by
 * consent instead of pasted credentials.
 */
export interface GoogleConsent {
  /** The URL of Google's consent screen; `state` comes back to the callback untouched. */
  consentUrl(state: string): string;
  /** Exchanges the callback's code for a refresh token (IntegrationNotConnectedError when Google refuses it). */
  exchangeCode(code: string): Promise<{ refreshToken: string }>;
}

/**
 * The provider's part of a change or a cancellation not done yet (issue 30 point 4): the provider was down or refused,
 * the platform's session changed all the same; the 'sessions-due' job tries again until the provider agrees.
 */
export interface ProviderPending {
  /** 'update': make the meeting match the session (made again when gone); 'delete': delete the meeting. */
  action: 'update' | 'delete';
  /** Attempts so far, the request's own included. */
  tries: number;
  /** When the job tries again; null: it gave up (a day after the session's end), the last error kept. */
  nextAt: string | null;
  /** The provider's reason or failure, in words, as last seen. */
  error: string;
}

/** A live session as stored (data/live-sessions.ts). */
export interface StoredSession {
  id: string;
  courseId: string;
  creatorId: string;
  title: string;
  description: string;
  startsAt: string;
  durationMinutes: number;
  provider: MeetingProviderName;
  /** The creator's time zone when it was last scheduled (how the provider shows it). */
  timeZone: string;
  meetingId: string;
  joinUrl: string;
  hostUrl: string;
  status: 'scheduled' | 'cancelled';
  /** RFC 5545 SEQUENCE: 0 when scheduled, +1 on every change and on the cancellation. */
  sequence: number;
  createdAt: string;
  updatedAt: string;
  /**
   * The start whose reminder is settled: its run was started, or the session had started before the job came to it.
   * Absent, or another start (the session moved): a reminder is due at startsAt - REMINDER_MINUTES_BEFORE.
   */
  remindedFor?: string;
  /** The provider's work still to do (absent: the provider has the session as it is). */
  providerPending?: ProviderPending;
}

export interface SessionRepository {
  /** Saves a new session, only while none has its id ('exists': an earlier attempt saved it). */
  create(session: StoredSession): Promise<'created' | 'exists'>;
  /** The session of this course (undefined when it does not exist or belongs to another course). */
  get(courseId: string, sessionId: string): Promise<StoredSession | undefined>;
  /** A session by its id alone (a learner's calendar file: the route names no course). */
  find(sessionId: string): Promise<StoredSession | undefined>;
  /** Replaces a session only while its stored `sequence` is `expectedSequence` ('changed' otherwise: read again). */
  save(session: StoredSession, expectedSequence: number): Promise<'saved' | 'changed'>;
  /** Every session of a course (scheduled and cancelled), soonest first. */
  listByCourse(courseId: string): Promise<StoredSession[]>;
  /** A course's scheduled sessions that have not ended at `now`, soonest first (at most UPCOMING_SESSIONS_PER_COURSE_MAX). */
  upcomingByCourse(courseId: string, now: string): Promise<StoredSession[]>;
  /**
   * A page of the sessions with work due at `now` (a reminder to start, the provider's work to retry), earliest due
   * first, from `after` (a cursor of this listing).
   */
  due(now: string, limit: number, after?: string): Promise<{ items: StoredSession[]; nextCursor: string | null }>;
  /**
   * The job's write: replaces the session only while it is still as `before` was read (its sequence, reminder and
   * provider work), so a change of the creator's, or an overlapping run, wins ('changed': leave it to the next run).
   */
  settle(session: StoredSession, before: StoredSession): Promise<'saved' | 'changed'>;
}

/** The creator's stored credentials for a provider, unsealed (functions/composition: the integrations and the cipher). */
export interface MeetingCredentialSource {
  /** IntegrationNotConnectedError when the provider is switched off, lacks a field or (Google) was never consented. */
  credentialsFor(creatorId: string, provider: MeetingProviderName): Promise<MeetingCredentials>;
}

/**
 * The emails a session's learners get (issue 30 point 3): the invitation in the session's current version (scheduled:
 * `METHOD:REQUEST`; changed: the same UID with `SEQUENCE` raised; cancelled: `METHOD:CANCEL`), or the reminder an
 * hour before it starts.
 */
export type SessionMailKind = 'invitation' | 'reminder';

/** The 'session-mail' job's name (functions/routes.ts `jobs`) and what its run is given. */
export const SESSION_MAIL_JOB = 'session-mail';
export interface SessionMailInput {
  readonly sessionId: string;
  readonly courseId: string;
  readonly mail: SessionMailKind;
  /** The session's version the run emails (its SEQUENCE): a run for an older version than the stored one stops. */
  readonly sequence: number;
  /** The start the reminder is for (a reminder run for a start since moved stops). */
  readonly startsAt: string;
}

/**
 * Starts the run that emails every learner actively enrolled in the session's course (the 'session-mail' job, a
 * sliced fan-out on its own queue): one run per session, kind and version (`session-mail@<sessionId>@<mail>@<sequence>`
 * for an invitation, `@reminder@<startsAt>` for a reminder), so starting it twice is one run. Each learner's email
 * goes exactly once per version (a claim per learner and session), through the mail queue.
 */
export interface SessionMailRuns {
  start(session: Pick<StoredSession, 'id' | 'courseId' | 'sequence' | 'startsAt'>, mail: SessionMailKind): Promise<void>;
}

/** The run's identity and first slice's input for a session and kind (the adapter sends `firstSlice(SESSION_MAIL_JOB, run, input)`). */
export const sessionMailRun = (session: Pick<StoredSession, 'id' | 'courseId' | 'sequence' | 'startsAt'>, mail: SessionMailKind): { run: string; input: SessionMailInput } => ({
  run: `${SESSION_MAIL_JOB}@${session.id}@${mail}@${mail === 'invitation' ? String(session.sequence) : session.startsAt}`,
  input: { sessionId: session.id, courseId: session.courseId, mail, sequence: session.sequence, startsAt: session.startsAt },
});
