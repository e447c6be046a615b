import { REMINDER_MINUTES_BEFORE } from '#contracts/live-sessions.ts';
import { throughPages, type SliceWork } from '#core/jobs/slices.ts';
import type { MeetingCredentialSource, MeetingProviders, SessionMailRuns, SessionRepository, StoredSession } from '#core/live-sessions/ports.ts';
import { detailsOf, isProviderRefusal, pendingAfter, providerFor, withoutPending } from '#core/live-sessions/sessions.ts';
import type { Clock } from '#core/ports.ts';

/**
 * The sessions' due work (issue 30 points 3 and 4), the 'sessions-due' job every minute: a session is due
 * - for its reminder at startsAt - REMINDER_MINUTES_BEFORE while scheduled and not reminded for that start
 *   (`remindedFor`), so a session moved after its reminder is reminded again for its new start, and one scheduled less
 *   than an hour ahead at once; the job starts the 'session-mail' reminder run (SessionMailRuns) unless the session
 *   has started already, then marks the start settled;
 * - for its provider's work (`providerPending`) at its `nextAt`: the meeting changed (made again when gone: its new
 *   links saved as a new version, SEQUENCE raised, and the learners' invitation run started for it, since the links
 *   they were sent no longer work) or deleted; the provider refusing or down again, tried later (1, 2, 5, 10, 30
 *   minutes, then hourly) until a day after the session's end, when the job stops and keeps the error.
 * Every write is the repository's `settle`, conditional on the session as read: a change of the creator's meanwhile
 * (which carries its own pending work and due time) or an overlapping run wins, and nothing is done twice.
 */

export const REMINDER_MS = REMINDER_MINUTES_BEFORE * 60_000;
/** Due sessions read per page. */
export const DUE_SESSIONS_PAGE = 25;
/** Sessions handled at once in a slice (each may wait on a provider for up to 10 s a call). */
export const DUE_SESSIONS_CONCURRENCY = 4;

/** When the session's reminder is due (undefined: none is: cancelled, or reminded for this start). */
export const reminderDueAt = (s: Pick<StoredSession, 'status' | 'startsAt' | 'remindedFor'>): string | undefined =>
  s.status === 'scheduled' && s.remindedFor !== s.startsAt ? new Date(Date.parse(s.startsAt) - REMINDER_MS).toISOString() : undefined;

/** When the session has work due: the earlier of its reminder and its provider's next try (undefined: none). */
export const sessionDueAt = (s: Pick<StoredSession, 'status' | 'startsAt' | 'remindedFor' | 'providerPending'>): string | undefined => {
  const times = [reminderDueAt(s), s.providerPending?.nextAt ?? undefined].filter((t): t is string => t !== undefined);
  return times.sort()[0];
};

export interface DueDeps {
  sessions: Pick<SessionRepository, 'due' | 'find' | 'settle'>;
  providers: MeetingProviders;
  credentials: MeetingCredentialSource;
  mailRuns: SessionMailRuns;
  clock: Clock;
  /** A session whose work failed unexpectedly (it stays due: the next run tries again). */
  warn: (message: string, fields: Record<string, unknown>) => void;
}

export interface DueCounts extends Record<string, number> {
  reminded: number;
  /** Reminders not sent: the session had started when the job came to it. */
  missed: number;
  synced: number;
  retrying: number;
  gaveUp: number;
  /** Sessions changed meanwhile (the newer write stands) or gone. */
  superseded: number;
  failed: number;
}

/** The provider's pending work done: the session as the provider now has it (new links when the meeting was made again). */
const providerWork = async (deps: Pick<DueDeps, 'providers' | 'credentials'>, s: StoredSession, now: Date): Promise<{ after: StoredSession; made?: string }> => {
  const provider = await providerFor(deps, s.creatorId, s.provider);
  if (s.providerPending?.action === 'delete') {
    await provider.deleteMeeting(s.meetingId);
    return { after: withoutPending(s) };
  }
  if ((await provider.updateMeeting(s.meetingId, detailsOf(s))) === 'updated') return { after: withoutPending(s) };
  const meeting = await provider.createMeeting(detailsOf(s));
  return { after: { ...withoutPending(s), ...meeting, sequence: s.sequence + 1, updatedAt: now.toISOString() }, made: meeting.meetingId };
};

/** One due session's work: the provider's first (a reminder then carries the links the provider agreed), then the reminder. */
export const settleDueSession = async (deps: DueDeps, read: StoredSession, counts: DueCounts): Promise<void> => {
  const before = await deps.sessions.find(read.id);
  if (!before) {
    counts.superseded++;
    return;
  }
  const now = deps.clock.now();
  const at = now.toISOString();
  let after = before;
  let made: string | undefined;
  const pending = before.providerPending;
  if (pending?.nextAt && pending.nextAt <= at) {
    try {
      ({ after, made } = await providerWork(deps, before, now));
      counts.synced++;
    } catch (error) {
      if (!isProviderRefusal(error)) throw error;
      after = { ...before, providerPending: pendingAfter(before, pending.action, pending.tries + 1, error, now) };
      if (after.providerPending?.nextAt === null) counts.gaveUp++;
      else counts.retrying++;
    }
  }
  const reminderAt = reminderDueAt(after);
  if (reminderAt !== undefined && reminderAt <= at) {
    try {
      if (Date.parse(after.startsAt) > now.getTime()) {
        await deps.mailRuns.start(after, 'reminder');
        counts.reminded++;
      } else counts.missed++;
      after = { ...after, remindedFor: after.startsAt };
    } catch (error) {
      // Not marked: the next run starts it again (the same run, one email per learner).
      counts.failed++;
      deps.warn('the reminder run could not be started', { sessionId: after.id, error: error instanceof Error ? error.message : String(error) });
    }
  }
  if (after === before) return;
  if ((await deps.sessions.settle(after, before)) === 'saved') {
    if (made !== undefined) {
      // New links: the learners get this version's invitation (one run per version).
      await deps.mailRuns.start(after, 'invitation').catch((error: unknown) =>
        deps.warn('the meeting was made again but its invitation run was not started', { sessionId: after.id, sequence: after.sequence, error: error instanceof Error ? error.message : String(error) }),
      );
    }
    return;
  }
  counts.superseded++;
  // A meeting made again for a version that lost: deleted (the newer change has its own work pending).
  if (made !== undefined) {
    const meetingId = made;
    await providerFor(deps, after.creatorId, after.provider)
      .then((provider) => provider.deleteMeeting(meetingId))
      .catch(() => undefined);
  }
};

/**
 * The 'sessions-due' job's work on a slice: the due index a page at a time, each session settled (a failure of one
 * is logged and left due, never stopping the others).
 */
export const runDueSessions =
  (deps: DueDeps): SliceWork<DueCounts> =>
  async (slice, timeUp) => {
    const now = deps.clock.now().toISOString();
    const counts: DueCounts = { reminded: 0, missed: 0, synced: 0, retrying: 0, gaveUp: 0, superseded: 0, failed: 0 };
    const { cursor } = await throughPages({
      cursor: slice.cursor,
      timeUp,
      concurrency: DUE_SESSIONS_CONCURRENCY,
      page: (after) => deps.sessions.due(now, DUE_SESSIONS_PAGE, after),
      handle: async (session) => {
        try {
          await settleDueSession(deps, session, counts);
        } catch (error) {
          counts.failed++;
          deps.warn('a due session failed', { sessionId: session.id, error: error instanceof Error ? error.message : String(error) });
        }
      },
    });
    return { cursor, counts };
  };
