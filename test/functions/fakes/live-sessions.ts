import { UPCOMING_SESSIONS_PER_COURSE_MAX } from '#contracts/live-sessions.ts';
import { IntegrationNotConnectedError, ProviderUnavailableError } from '#core/errors.ts';
import { sessionDueAt } from '#core/live-sessions/due.ts';
import type {
  MeetingCredentials,
  MeetingCredentialSource,
  MeetingDetails,
  MeetingProvider,
  MeetingProviderName,
  MeetingProviders,
  ProviderMeeting,
  SessionMailKind,
  SessionMailRuns,
  SessionRepository,
  StoredSession,
} from '#core/live-sessions/ports.ts';
import { copy } from './hooks.ts';

/**
 * Sessions with functions/data/live-sessions.ts's conditions: a create only once per id, a save only from the sequence
 * read, the job's settle only from the session as read; the due index ordered by due time, paged by position.
 */
export const memorySessions = () => {
  const items = new Map<string, StoredSession>();
  const key = (courseId: string, id: string) => `${courseId}/${id}`;
  const ends = (s: StoredSession) => Date.parse(s.startsAt) + s.durationMinutes * 60_000;
  const soonest = (a: StoredSession, b: StoredSession) => a.startsAt.localeCompare(b.startsAt) || a.id.localeCompare(b.id);
  const repo: SessionRepository & { items: Map<string, StoredSession>; failNextCreate?: Error } = {
    items,
    async create(session) {
      if (repo.failNextCreate) {
        const error = repo.failNextCreate;
        delete repo.failNextCreate;
        throw error;
      }
      if (items.has(key(session.courseId, session.id))) return 'exists';
      items.set(key(session.courseId, session.id), copy(session));
      return 'created';
    },
    async get(courseId, id) {
      const found = items.get(key(courseId, id));
      return found && copy(found);
    },
    async find(id) {
      const found = [...items.values()].find((s) => s.id === id);
      return found && copy(found);
    },
    async save(session, expectedSequence) {
      if (items.get(key(session.courseId, session.id))?.sequence !== expectedSequence) return 'changed';
      items.set(key(session.courseId, session.id), copy(session));
      return 'saved';
    },
    async listByCourse(courseId) {
      return [...items.values()].filter((s) => s.courseId === courseId).sort(soonest).map(copy);
    },
    async due(now, limit, after) {
      const due = [...items.values()]
        .map((s) => ({ s, at: sessionDueAt(s) }))
        .filter((d): d is { s: StoredSession; at: string } => d.at !== undefined && d.at <= now)
        .sort((a, b) => a.at.localeCompare(b.at) || a.s.id.localeCompare(b.s.id));
      const from = after ? due.findIndex((d) => `${d.at}#${d.s.id}` > after) : 0;
      const page = from < 0 ? [] : due.slice(from, from + limit);
      const last = page.at(-1);
      return { items: page.map((d) => copy(d.s)), nextCursor: last && from + limit < due.length ? `${last.at}#${last.s.id}` : null };
    },
    async settle(session, before) {
      const stored = items.get(key(session.courseId, session.id));
      if (!stored || stored.sequence !== before.sequence || stored.remindedFor !== before.remindedFor || stored.providerPending?.tries !== before.providerPending?.tries) return 'changed';
      items.set(key(session.courseId, session.id), copy(session));
      return 'saved';
    },
    async upcomingByCourse(courseId, now) {
      return [...items.values()]
        .filter((s) => s.courseId === courseId && s.status === 'scheduled' && ends(s) > Date.parse(now))
        .sort(soonest)
        .slice(0, UPCOMING_SESSIONS_PER_COURSE_MAX)
        .map(copy);
    },
  };
  return repo;
};

/**
 * One provider account in memory, as a stand-in keeps it: meetings by id, the calls made, and a failure to throw on the
 * next call of a kind (`failNext`).
 */
export const memoryMeetings = (provider: MeetingProviderName = 'zoom') => {
  const meetings = new Map<string, MeetingDetails & ProviderMeeting>();
  const calls: string[] = [];
  const failNext = new Map<string, Error>();
  let next = 0;
  const failing = (call: string) => {
    calls.push(call);
    const error = failNext.get(call);
    if (error) {
      failNext.delete(call);
      throw error;
    }
  };
  const client: MeetingProvider = {
    provider,
    async check() {
      failing('check');
    },
    async createMeeting(details) {
      failing('create');
      const meetingId = `m-${++next}`;
      const meeting = { meetingId, joinUrl: `https://meet.example/j/${meetingId}`, hostUrl: `https://meet.example/s/${meetingId}` };
      meetings.set(meetingId, { ...details, ...meeting });
      return meeting;
    },
    async findMeeting(sessionId) {
      failing('find');
      const found = [...meetings.values()].find((m) => m.sessionId === sessionId);
      return found && { meetingId: found.meetingId, joinUrl: found.joinUrl, hostUrl: found.hostUrl };
    },
    async updateMeeting(meetingId, details) {
      failing('update');
      const found = meetings.get(meetingId);
      if (!found) return 'gone';
      meetings.set(meetingId, { ...found, ...details });
      return 'updated';
    },
    async deleteMeeting(meetingId) {
      failing('delete');
      meetings.delete(meetingId);
    },
  };
  const providers: MeetingProviders & { credentials: MeetingCredentials[] } = {
    credentials: [],
    connect(_creatorId, credentials) {
      providers.credentials.push(credentials);
      return client;
    },
  };
  return { meetings, calls, failNext, client, providers, down: () => new ProviderUnavailableError(provider, 'Zoom did not answer in time.') };
};

/** The creator's credentials: connected for the providers named, refused with words for the others. */
export const connectedProviders = (...connected: MeetingProviderName[]): MeetingCredentialSource => ({
  async credentialsFor(_creatorId, provider) {
    if (!connected.includes(provider)) throw new IntegrationNotConnectedError(provider, 'Connect it first in Live Session Integrations.');
    switch (provider) {
      case 'zoom':
        return { provider, accountId: 'acct', clientId: 'client', clientSecret: 'secret' };
      case 'teams':
        return { provider, tenantId: 'tenant', clientId: 'client', clientSecret: 'secret', organizerEmail: 'host@example.com' };
      case 'google':
        return { provider, refreshToken: 'refresh', calendarId: 'primary' };
    }
  },
});

/** The 'session-mail' runs started (session id, kind, version), and a failure to throw on the next start (`failNext`). */
export const memoryMailRuns = () => {
  const runs: { sessionId: string; mail: SessionMailKind; sequence: number }[] = [];
  const state: SessionMailRuns & { runs: typeof runs; failNext?: Error } = {
    runs,
    async start(session, mail) {
      if (state.failNext) {
        const error = state.failNext;
        delete state.failNext;
        throw error;
      }
      runs.push({ sessionId: session.id, mail, sequence: session.sequence });
    },
  };
  return state;
};
