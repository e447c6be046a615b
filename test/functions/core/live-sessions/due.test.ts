import { describe, expect, it } from 'vitest';
import { IntegrationNotConnectedError } from '#core/errors.ts';
import { reminderDueAt, runDueSessions, sessionDueAt, type DueDeps } from '#core/live-sessions/due.ts';
import type { SessionMailKind, StoredSession } from '#core/live-sessions/ports.ts';
import { cancelSession, pendingAfter, scheduleSession, updateSession, type SessionDeps } from '#core/live-sessions/sessions.ts';
import { NOW, sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { courseRecord, memoryCourses } from '#test/functions/fakes/courses.ts';
import { connectedProviders, memoryMeetings, memorySessions } from '#test/functions/fakes/live-sessions.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';

// The sessions' due work (issue 30 points 3 and 4): the reminder an hour before each start, and a change or a
// cancellation the provider was down for retried with backoff until it agrees.

const MIN = 60_000;
const at = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * MIN).toISOString();
/** Three hours after NOW. */
const START = at(NOW, 180);

const setup = async () => {
  const courses = memoryCourses();
  await courses.create(courseRecord());
  const zoom = memoryMeetings('zoom');
  const sessions = memorySessions();
  const clock = testClock();
  const started: { sessionId: string; mail: SessionMailKind; startsAt: string; sequence: number }[] = [];
  const warnings: string[] = [];
  const invited: { sessionId: string; sequence: number }[] = [];
  let credentials = connectedProviders('zoom');
  const mailFails: Error[] = [];
  const mailRuns: DueDeps['mailRuns'] = {
    async start(session, mail) {
      if (mail !== 'reminder') return void invited.push({ sessionId: session.id, sequence: session.sequence });
      const failure = mailFails.shift();
      if (failure) throw failure;
      started.push({ sessionId: session.id, mail, startsAt: session.startsAt, sequence: session.sequence });
    },
  };
  // The session use cases' own mail runs (the invitations) are the same recorder, which keeps the reminders only.
  const deps: SessionDeps = Object.assign(
    {
      courses,
      sessions,
      providers: zoom.providers,
      credentials: { credentialsFor: (creatorId: string, provider: StoredSession['provider']) => credentials.credentialsFor(creatorId, provider) },
      ids: sequentialIds('s'),
      clock,
      sessionIdFor: (creatorId: string, key: string) => `k-${creatorId}-${key}`,
    },
    { mailRuns, log: () => undefined },
  );
  const dueDeps: DueDeps = {
    sessions,
    providers: zoom.providers,
    credentials: deps.credentials,
    clock,
    mailRuns,
    warn: (message) => void warnings.push(message),
  };
  const run = async () => (await runToEnd('sessions-due', () => runDueSessions(dueDeps))).counts;
  const schedule = (startsAt = START) => scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body: { title: 'Live Q&A', startsAt, durationMinutes: 60, provider: 'zoom' } });
  const stored = async (id: string) => (await sessions.find(id))!;
  return {
    deps,
    dueDeps,
    zoom,
    sessions,
    clock,
    started,
    invited,
    warnings,
    mailFails,
    run,
    schedule,
    stored,
    refuse: () => void (credentials = connectedProviders()),
    reconnect: () => void (credentials = connectedProviders('zoom')),
  };
};

describe('when a session is due', () => {
  const session = (over: Partial<StoredSession> = {}) => ({ status: 'scheduled' as const, startsAt: START, ...over });

  it('is due for its reminder an hour before the start, until reminded for that start; a cancelled one never', () => {
    expect(reminderDueAt(session())).toBe(at(START, -60));
    expect(reminderDueAt(session({ remindedFor: START }))).toBeUndefined();
    expect(reminderDueAt(session({ remindedFor: at(START, -1440) }))).toBe(at(START, -60));
    expect(reminderDueAt(session({ status: 'cancelled' }))).toBeUndefined();
  });

  it("is due at the earlier of its reminder and its provider's next try; a give-up is due no more", () => {
    const pending = (nextAt: string | null) => ({ action: 'update' as const, tries: 1, nextAt, error: 'down' });
    expect(sessionDueAt(session({ providerPending: pending(at(NOW, 1)) }))).toBe(at(NOW, 1));
    expect(sessionDueAt(session({ providerPending: pending(at(START, 10)) }))).toBe(at(START, -60));
    expect(sessionDueAt(session({ remindedFor: START, providerPending: pending(at(START, 10)) }))).toBe(at(START, 10));
    expect(sessionDueAt(session({ remindedFor: START, providerPending: pending(null) }))).toBeUndefined();
    expect(sessionDueAt(session({ status: 'cancelled', providerPending: pending(at(NOW, 5)) }))).toBe(at(NOW, 5));
  });

  it('tries the provider again after 1, 2, 5, 10, 30 minutes, then hourly, and stops a day after the end keeping the error', () => {
    const s = { startsAt: START, durationMinutes: 60 };
    const error = new Error('Zoom answered 503.');
    const delays = [1, 2, 3, 4, 5, 6, 7].map((tries) => (Date.parse(pendingAfter(s, 'update', tries, error, new Date(NOW)).nextAt!) - Date.parse(NOW)) / MIN);
    expect(delays).toEqual([1, 2, 5, 10, 30, 60, 60]);
    const end = at(START, 60);
    // The last try is at most at the end + 1 day; from then on, none.
    expect(pendingAfter(s, 'update', 9, error, new Date(at(end, 1440 - 10))).nextAt).toBe(at(end, 1440));
    expect(pendingAfter(s, 'delete', 10, error, new Date(at(end, 1440)))).toEqual({ action: 'delete', tries: 10, nextAt: null, error: 'Zoom answered 503.' });
  });
});

describe('the reminder an hour before', () => {
  it('starts the reminder run once, an hour before the start, and marks the start reminded', async () => {
    const { clock, run, schedule, started, stored } = await setup();
    const made = await schedule();
    expect(await run()).toMatchObject({ reminded: 0 });
    clock.set(at(START, -61));
    expect(await run()).toMatchObject({ reminded: 0 });
    clock.set(at(START, -60));
    expect(await run()).toMatchObject({ reminded: 1 });
    expect(started).toEqual([{ sessionId: made.id, mail: 'reminder', startsAt: START, sequence: 0 }]);
    expect((await stored(made.id)).remindedFor).toBe(START);
    clock.set(at(START, -30));
    expect(await run()).toMatchObject({ reminded: 0 });
    expect(started).toHaveLength(1);
  });

  it('reminds a session scheduled less than an hour ahead at once', async () => {
    const { run, schedule, started } = await setup();
    const made = await schedule(at(NOW, 20));
    expect(await run()).toMatchObject({ reminded: 1 });
    expect(started).toEqual([expect.objectContaining({ sessionId: made.id, startsAt: at(NOW, 20) })]);
  });

  it('reminds a session moved after its reminder again for its new start, and not one cancelled', async () => {
    const { deps, clock, run, schedule, started, stored } = await setup();
    const made = await schedule();
    const other = await schedule(at(START, 10));
    clock.set(at(START, -50));
    await run();
    expect(started.map((s) => s.sessionId).sort()).toEqual([made.id, other.id].sort());
    const later = at(START, 24 * 60);
    await updateSession(deps, { creatorId: 'c1', courseId: 'course-1', sessionId: made.id, body: { startsAt: later } });
    await cancelSession(deps, { creatorId: 'c1', courseId: 'course-1', sessionId: other.id });
    expect(await run()).toMatchObject({ reminded: 0 });
    clock.set(at(later, -60));
    expect(await run()).toMatchObject({ reminded: 1 });
    expect(started.slice(2)).toEqual([{ sessionId: made.id, mail: 'reminder', startsAt: later, sequence: 1 }]);
    expect((await stored(made.id)).remindedFor).toBe(later);
  });

  it('sends no reminder for a session that has started before the job came to it, and lets it go', async () => {
    const { clock, run, schedule, started, stored } = await setup();
    const made = await schedule(at(NOW, 30));
    clock.set(at(NOW, 31));
    expect(await run()).toMatchObject({ reminded: 0, missed: 1 });
    expect(started).toEqual([]);
    expect((await stored(made.id)).remindedFor).toBe(made.startsAt);
    expect(await run()).toMatchObject({ missed: 0 });
  });

  it('leaves a reminder whose run could not be started due, and starts it on the next run', async () => {
    const { mailFails, run, schedule, started, stored, warnings } = await setup();
    const made = await schedule(at(NOW, 30));
    mailFails.push(new Error('SQS is down'));
    expect(await run()).toMatchObject({ reminded: 0, failed: 1 });
    expect(warnings).toEqual(['the reminder run could not be started']);
    expect((await stored(made.id)).remindedFor).toBeUndefined();
    expect(await run()).toMatchObject({ reminded: 1 });
    expect(started).toHaveLength(1);
  });
});

describe("a change or cancellation retried until the provider agrees", () => {
  it('changes the meeting when the provider is back, and the session reads done', async () => {
    const { deps, zoom, clock, run, schedule, stored } = await setup();
    const made = await schedule(at(NOW, 24 * 60));
    const meetingId = [...zoom.meetings.keys()][0]!;
    const later = at(NOW, 26 * 60);
    zoom.failNext.set('update', zoom.down());
    await updateSession(deps, { creatorId: 'c1', courseId: 'course-1', sessionId: made.id, body: { startsAt: later } });
    expect(zoom.meetings.get(meetingId)!.startsAt).toBe(made.startsAt);
    expect(await run()).toMatchObject({ synced: 0 });

    // Down again at the first retry: the next one 2 minutes later.
    clock.advance(MIN);
    zoom.failNext.set('update', zoom.down());
    expect(await run()).toMatchObject({ synced: 0, retrying: 1 });
    expect((await stored(made.id)).providerPending).toEqual({ action: 'update', tries: 2, nextAt: at(NOW, 3), error: 'Zoom did not answer in time.' });
    clock.advance(MIN);
    expect(await run()).toMatchObject({ synced: 0, retrying: 0 });
    clock.advance(MIN);
    expect(await run()).toMatchObject({ synced: 1 });
    expect(zoom.meetings.get(meetingId)!.startsAt).toBe(later);
    const done = await stored(made.id);
    expect(done).not.toHaveProperty('providerPending');
    expect(done.sequence).toBe(1);
  });

  it('makes the meeting again when the provider no longer has it, saving its new links as a new version its learners are invited to', async () => {
    const { deps, zoom, clock, run, schedule, stored, refuse, reconnect, invited } = await setup();
    const made = await schedule(at(NOW, 24 * 60));
    refuse();
    const pending = await updateSession(deps, { creatorId: 'c1', courseId: 'course-1', sessionId: made.id, body: { title: 'Moved' } });
    expect(pending.providerError).toBe('Connect it first in Live Session Integrations.');
    zoom.meetings.clear();
    reconnect();
    clock.advance(MIN);
    expect(await run()).toMatchObject({ synced: 1 });
    const after = await stored(made.id);
    expect(after.joinUrl).not.toBe(made.joinUrl);
    expect([...zoom.meetings.values()]).toEqual([expect.objectContaining({ meetingId: after.meetingId, title: 'Moved', joinUrl: after.joinUrl })]);
    expect(after.sequence).toBe(2);
    // (The change's own invitation, version 1 with the old links, is the session use case's.)
    expect(invited.filter((i) => i.sequence > 1)).toEqual([{ sessionId: made.id, sequence: 2 }]);
  });

  it('deletes the meeting of a session cancelled while the provider was down', async () => {
    const { deps, zoom, clock, run, schedule, stored } = await setup();
    const made = await schedule(at(NOW, 24 * 60));
    zoom.failNext.set('delete', zoom.down());
    await cancelSession(deps, { creatorId: 'c1', courseId: 'course-1', sessionId: made.id });
    expect(zoom.meetings.size).toBe(1);
    clock.advance(MIN);
    expect(await run()).toMatchObject({ synced: 1, reminded: 0 });
    expect(zoom.meetings.size).toBe(0);
    expect(await stored(made.id)).toMatchObject({ status: 'cancelled', sequence: 1 });
    expect(await stored(made.id)).not.toHaveProperty('providerPending');
  });

  it('stops a day after the end, keeping the error, and tries no more', async () => {
    const { deps, zoom, clock, run, schedule, stored, refuse } = await setup();
    const made = await schedule(at(NOW, 30));
    refuse();
    await cancelSession(deps, { creatorId: 'c1', courseId: 'course-1', sessionId: made.id });
    clock.set(at(NOW, 30 + 60 + 1440));
    expect(await run()).toMatchObject({ gaveUp: 1 });
    expect((await stored(made.id)).providerPending).toMatchObject({ action: 'delete', nextAt: null, error: 'Connect it first in Live Session Integrations.' });
    const calls = zoom.calls.length;
    clock.advance(24 * 60 * MIN);
    expect(await run()).toMatchObject({ synced: 0, retrying: 0, gaveUp: 0 });
    expect(zoom.calls).toHaveLength(calls);
  });

  it("lets a newer change win over the job's retry: nothing of the retry is saved, the meeting it made again is deleted", async () => {
    const { deps, dueDeps, zoom, clock, schedule, stored, sessions, invited } = await setup();
    const made = await schedule(at(NOW, 24 * 60));
    zoom.failNext.set('update', zoom.down());
    await updateSession(deps, { creatorId: 'c1', courseId: 'course-1', sessionId: made.id, body: { title: 'First change' } });
    zoom.meetings.clear();
    clock.advance(MIN);
    // The creator's next change lands while the job waits on the provider (made again for the first change).
    const realCreate = zoom.client.createMeeting.bind(zoom.client);
    zoom.client.createMeeting = async (details) => {
      const meeting = await realCreate(details);
      const current = (await sessions.find(made.id))!;
      await sessions.save({ ...current, title: 'Second change', sequence: current.sequence + 1 }, current.sequence);
      return meeting;
    };
    const { counts } = await runToEnd('sessions-due', () => runDueSessions(dueDeps));
    expect(counts).toMatchObject({ synced: 1, superseded: 1 });
    expect(invited.filter((i) => i.sequence > 1)).toEqual([]);
    expect(await stored(made.id)).toMatchObject({ title: 'Second change', sequence: 2, providerPending: { action: 'update', tries: 1 } });
    expect(zoom.meetings.size).toBe(0);
  });

  it('a session failing unexpectedly is logged and left due, the others handled', async () => {
    const { dueDeps, run, schedule, sessions, started, warnings } = await setup();
    const broken = await schedule(at(NOW, 20));
    const fine = await schedule(at(NOW, 25));
    const find = sessions.find.bind(sessions);
    dueDeps.sessions = { ...sessions, due: sessions.due.bind(sessions), settle: sessions.settle.bind(sessions), find: (id) => (id === broken.id ? Promise.reject(new Error('boom')) : find(id)) };
    expect(await run()).toMatchObject({ reminded: 1, failed: 1 });
    expect(started.map((s) => s.sessionId)).toEqual([fine.id]);
    expect(warnings).toEqual(['a due session failed']);
  });
});

describe('the refusal kept', () => {
  it('names the provider and its reason', () => {
    expect(pendingAfter({ startsAt: START, durationMinutes: 30 }, 'update', 1, new IntegrationNotConnectedError('zoom', 'Zoom refused the API Secret.'), new Date(NOW)).error).toBe('Zoom refused the API Secret.');
  });
});
