import { describe, expect, it } from 'vitest';
import { UPCOMING_SESSIONS_PER_COURSE_MAX } from '#contracts/live-sessions.ts';
import { ConflictError, IntegrationNotConnectedError, NotFoundError, ProviderUnavailableError } from '#core/errors.ts';
import { sessionCalendar } from '#core/live-sessions/calendar.ts';
import {
  cancelSession,
  learnerSessionCalendar,
  learnerSessions,
  listCourseSessions,
  scheduleSession,
  SESSION_CANCELLED,
  SESSION_ENDED,
  SESSION_IN_PAST,
  updateSession,
  type SessionDeps,
} from '#core/live-sessions/sessions.ts';
import { NOW, sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { courseRecord, memoryCourses } from '#test/functions/fakes/courses.ts';
import { memoryEnrollments } from '#test/functions/fakes/enrollments.ts';
import { memoryLicenses } from '#test/functions/fakes/licenses.ts';
import { connectedProviders, memoryMailRuns, memoryMeetings, memorySessions } from '#test/functions/fakes/live-sessions.ts';

const TOMORROW = '2026-11-22T18:00:00.000Z';
const body = { title: 'Live Q&A', startsAt: TOMORROW, durationMinutes: 60, provider: 'zoom' as const, description: 'Bring questions.' };

const setup = async () => {
  const courses = memoryCourses();
  await courses.create(courseRecord());
  await courses.create(courseRecord({ id: 'course-2', creatorId: 'c2', title: 'Bread' }));
  const zoom = memoryMeetings('zoom');
  const sessions = memorySessions();
  const clock = testClock();
  const mailRuns = memoryMailRuns();
  const logged: string[] = [];
  const deps: SessionDeps = {
    courses,
    sessions,
    providers: zoom.providers,
    credentials: connectedProviders('zoom'),
    ids: sequentialIds('s'),
    clock,
    sessionIdFor: (creatorId, key) => `k-${creatorId}-${key}`,
    mailRuns,
    log: (message) => logged.push(message),
  };
  return { deps, zoom, sessions, clock, mailRuns, logged };
};

describe("the learners' emails started with every change", () => {
  it('starts the invitation run of each saved version: scheduled (0), changed (1), cancelled (2)', async () => {
    const { deps, mailRuns } = await setup();
    const made = await scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body });
    await updateSession(deps, { creatorId: 'c1', courseId: 'course-1', sessionId: made.id, body: { title: 'Live Q&A (moved)' } });
    await cancelSession(deps, { creatorId: 'c1', courseId: 'course-1', sessionId: made.id });
    expect(mailRuns.runs).toEqual([0, 1, 2].map((sequence) => ({ sessionId: made.id, mail: 'invitation', sequence })));
  });

  it('a start that fails is logged and the session stays saved; the retry with the same key starts it again', async () => {
    const { deps, mailRuns, sessions, logged } = await setup();
    mailRuns.failNext = new Error('SQS down');
    const made = await scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body, idempotencyKey: 'key-1' });
    expect(await sessions.get('course-1', made.id)).toMatchObject({ status: 'scheduled', sequence: 0 });
    expect(logged).toEqual(['session saved but its emails were not started']);
    expect(mailRuns.runs).toEqual([]);
    await scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body, idempotencyKey: 'key-1' });
    expect(mailRuns.runs).toEqual([{ sessionId: made.id, mail: 'invitation', sequence: 0 }]);
  });

  it('starts nothing when the change is refused', async () => {
    const { deps, mailRuns } = await setup();
    await expect(scheduleSession(deps, { creatorId: 'c1', courseId: 'course-2', body })).rejects.toBeInstanceOf(NotFoundError);
    expect(mailRuns.runs).toEqual([]);
  });
});

describe('scheduling a live session', () => {
  it('makes the meeting at the provider, then saves the session with its join and host links', async () => {
    const { deps, zoom, sessions } = await setup();
    const made = await scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body });
    expect(made).toMatchObject({ courseId: 'course-1', title: 'Live Q&A', startsAt: TOMORROW, durationMinutes: 60, provider: 'zoom', status: 'scheduled' });
    expect(made.joinUrl).toMatch(/^https:\/\/meet\.example\/j\//);
    expect(made.hostUrl).toMatch(/^https:\/\/meet\.example\/s\//);
    expect([...zoom.meetings.values()]).toEqual([expect.objectContaining({ sessionId: made.id, title: 'Live Q&A', timeZone: 'Europe/London', durationMinutes: 60 })]);
    expect(await sessions.get('course-1', made.id)).toMatchObject({ sequence: 0, creatorId: 'c1' });
    expect(zoom.providers.credentials).toEqual([{ provider: 'zoom', accountId: 'acct', clientId: 'client', clientSecret: 'secret' }]);
  });

  it("is 404 for another creator's course and refuses a start in the past, touching no provider", async () => {
    const { deps, zoom } = await setup();
    await expect(scheduleSession(deps, { creatorId: 'c1', courseId: 'course-2', body })).rejects.toBeInstanceOf(NotFoundError);
    const past = scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body: { ...body, startsAt: '2026-11-21T11:00:00.000Z' } });
    await expect(past).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: SESSION_IN_PAST });
    expect(zoom.calls).toEqual([]);
  });

  it('refuses a provider that is not connected with its reason (409), saving nothing', async () => {
    const { deps, sessions } = await setup();
    const refused = scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body: { ...body, provider: 'teams' } });
    await expect(refused).rejects.toBeInstanceOf(IntegrationNotConnectedError);
    expect(sessions.items.size).toBe(0);
  });

  it('leaves nothing saved when the provider is down', async () => {
    const { deps, zoom, sessions } = await setup();
    zoom.failNext.set('create', zoom.down());
    await expect(scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body })).rejects.toBeInstanceOf(ProviderUnavailableError);
    expect(sessions.items.size).toBe(0);
    expect(zoom.meetings.size).toBe(0);
  });

  it('deletes the meeting it made when the session cannot be saved: nothing left at the provider', async () => {
    const { deps, zoom, sessions } = await setup();
    sessions.failNextCreate = new Error('DynamoDB is down');
    await expect(scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body })).rejects.toThrow('DynamoDB is down');
    expect(zoom.meetings.size).toBe(0);
    expect(sessions.items.size).toBe(0);
  });

  it('with an Idempotency-Key, a retry adopts the meeting an earlier attempt made, and a repeat answers the saved session', async () => {
    const { deps, zoom, sessions } = await setup();
    // The first attempt made the meeting but could not save, and could not delete it either (the provider failed then).
    sessions.failNextCreate = new Error('timed out');
    zoom.failNext.set('delete', zoom.down());
    const input = { creatorId: 'c1', courseId: 'course-1', body, idempotencyKey: 'key-1' };
    await expect(scheduleSession(deps, input)).rejects.toThrow('timed out');
    expect(zoom.meetings.size).toBe(1);
    const retried = await scheduleSession(deps, input);
    expect(zoom.meetings.size).toBe(1);
    expect(retried.joinUrl).toBe([...zoom.meetings.values()][0]!.joinUrl);
    expect(await scheduleSession(deps, input)).toEqual(retried);
    expect(zoom.meetings.size).toBe(1);
  });

  it(`holds at most ${UPCOMING_SESSIONS_PER_COURSE_MAX} upcoming sessions per course`, async () => {
    const { deps } = await setup();
    for (let i = 0; i < UPCOMING_SESSIONS_PER_COURSE_MAX; i++) await scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body });
    await expect(scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body })).rejects.toBeInstanceOf(ConflictError);
  });
});

describe('changing and cancelling a session', () => {
  it('moves the meeting at the provider and raises the sequence', async () => {
    const { deps, zoom, sessions } = await setup();
    const made = await scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body });
    const moved = await updateSession(deps, { creatorId: 'c1', courseId: 'course-1', sessionId: made.id, body: { startsAt: '2026-11-23T18:00:00.000Z', durationMinutes: 90 } });
    expect(moved).toMatchObject({ startsAt: '2026-11-23T18:00:00.000Z', durationMinutes: 90, title: 'Live Q&A', joinUrl: made.joinUrl });
    expect(zoom.meetings.get([...zoom.meetings.keys()][0]!)).toMatchObject({ startsAt: '2026-11-23T18:00:00.000Z', durationMinutes: 90 });
    expect((await sessions.get('course-1', made.id))!.sequence).toBe(1);
  });

  it('makes the meeting again when the provider no longer has it', async () => {
    const { deps, zoom } = await setup();
    const made = await scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body });
    zoom.meetings.clear();
    const moved = await updateSession(deps, { creatorId: 'c1', courseId: 'course-1', sessionId: made.id, body: { title: 'Office hours' } });
    expect(moved.joinUrl).not.toBe(made.joinUrl);
    expect([...zoom.meetings.values()]).toEqual([expect.objectContaining({ title: 'Office hours', joinUrl: moved.joinUrl })]);
  });

  it('saves a change the provider fails or refuses all the same, its work pending at the provider with the reason; a later change that reaches it clears it', async () => {
    const { deps, zoom, sessions } = await setup();
    const made = await scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body });
    const meetingId = [...zoom.meetings.keys()][0]!;
    zoom.failNext.set('update', zoom.down());
    const input = { creatorId: 'c1', courseId: 'course-1', sessionId: made.id, body: { title: 'Office hours' } };
    const pending = await updateSession(deps, input);
    expect(pending).toMatchObject({ title: 'Office hours', providerSync: 'pending', providerError: 'Zoom did not answer in time.' });
    expect(await sessions.get('course-1', made.id)).toMatchObject({
      title: 'Office hours',
      sequence: 1,
      providerPending: { action: 'update', tries: 1, nextAt: '2026-11-21T12:01:00.000Z', error: 'Zoom did not answer in time.' },
    });
    expect(zoom.meetings.get(meetingId)).toMatchObject({ title: 'Live Q&A' });

    // Refused (the integration switched off): saved too, with the reason in words.
    const refused = await updateSession({ ...deps, credentials: connectedProviders() }, { ...input, body: { durationMinutes: 90 } });
    expect(refused).toMatchObject({ durationMinutes: 90, providerSync: 'pending', providerError: 'Connect it first in Live Session Integrations.' });

    const reached = await updateSession(deps, { ...input, body: { title: 'Office hours (2)' } });
    expect(reached).toMatchObject({ providerSync: 'done' });
    expect(reached).not.toHaveProperty('providerError');
    expect(await sessions.get('course-1', made.id)).not.toHaveProperty('providerPending');
    expect(zoom.meetings.get(meetingId)).toMatchObject({ title: 'Office hours (2)', durationMinutes: 90 });
  });

  it('answers a change the provider made with providerSync done', async () => {
    const { deps } = await setup();
    const made = await scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body });
    expect(made).toMatchObject({ providerSync: 'done' });
    expect(await updateSession(deps, { creatorId: 'c1', courseId: 'course-1', sessionId: made.id, body: { title: 'x' } })).toMatchObject({ providerSync: 'done' });
  });

  it('cancels at the provider, keeps the session as cancelled (sequence raised), and a second cancel is done already', async () => {
    const { deps, zoom, sessions } = await setup();
    const made = await scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body });
    await cancelSession(deps, { creatorId: 'c1', courseId: 'course-1', sessionId: made.id });
    expect(zoom.meetings.size).toBe(0);
    expect(await sessions.get('course-1', made.id)).toMatchObject({ status: 'cancelled', sequence: 1 });
    await cancelSession(deps, { creatorId: 'c1', courseId: 'course-1', sessionId: made.id });
    expect((await sessions.get('course-1', made.id))!.sequence).toBe(1);
    const changing = updateSession(deps, { creatorId: 'c1', courseId: 'course-1', sessionId: made.id, body: { title: 'x' } });
    await expect(changing).rejects.toThrow(new ConflictError(SESSION_CANCELLED));
  });

  it('cancels all the same when the provider cannot delete the meeting, the deletion pending (answered), and the session can be cancelled once only', async () => {
    const { deps, zoom, sessions } = await setup();
    const made = await scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body });
    zoom.failNext.set('delete', zoom.down());
    const answer = await cancelSession(deps, { creatorId: 'c1', courseId: 'course-1', sessionId: made.id });
    expect(answer).toMatchObject({ status: 'cancelled', providerSync: 'pending', providerError: 'Zoom did not answer in time.' });
    expect(await sessions.get('course-1', made.id)).toMatchObject({ status: 'cancelled', sequence: 1, providerPending: { action: 'delete', tries: 1 } });
    expect(zoom.meetings.size).toBe(1);
    expect(await cancelSession(deps, { creatorId: 'c1', courseId: 'course-1', sessionId: made.id })).toBeUndefined();
    expect((await sessions.get('course-1', made.id))!.sequence).toBe(1);
  });

  it('refuses to change a session that has ended', async () => {
    const { deps, clock } = await setup();
    const made = await scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body });
    clock.set('2026-11-22T19:00:00.000Z');
    const late = updateSession(deps, { creatorId: 'c1', courseId: 'course-1', sessionId: made.id, body: { title: 'x' } });
    await expect(late).rejects.toThrow(new ConflictError(SESSION_ENDED));
  });

  it("is 404 for another creator's session", async () => {
    const { deps } = await setup();
    const made = await scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body });
    await expect(cancelSession(deps, { creatorId: 'c2', courseId: 'course-1', sessionId: made.id })).rejects.toBeInstanceOf(NotFoundError);
    await expect(listCourseSessions(deps, { creatorId: 'c2', courseId: 'course-1' })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("the learner's sessions", () => {
  it('lists the scheduled sessions of their active courses that have not ended, soonest first, without the host link', async () => {
    const { deps, clock } = await setup();
    const enrollments = memoryEnrollments();
    await enrollments.enroll({ courseId: 'course-1', learnerId: 'ann', creatorId: 'c1', learnerEmail: 'ann@example.com', learnerJoinedAt: NOW, courseTitle: 'Knife skills', enrolledAt: NOW });
    const later = await scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body: { ...body, startsAt: '2026-11-25T18:00:00.000Z' } });
    const sooner = await scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body });
    const dropped = await scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body: { ...body, title: 'Dropped' } });
    await cancelSession(deps, { creatorId: 'c1', courseId: 'course-1', sessionId: dropped.id });
    await scheduleSession(deps, { creatorId: 'c2', courseId: 'course-2', body });

    const listed = await learnerSessions({ enrollments, sessions: deps.sessions, clock }, 'ann');
    expect(listed.items.map((s) => s.id)).toEqual([sooner.id, later.id]);
    expect(listed.items[0]).toEqual({
      id: sooner.id,
      courseId: 'course-1',
      courseTitle: 'Knife skills',
      title: 'Live Q&A',
      description: 'Bring questions.',
      startsAt: TOMORROW,
      durationMinutes: 60,
      provider: 'zoom',
      joinUrl: sooner.joinUrl,
    });
    clock.set('2026-11-22T19:30:00.000Z');
    expect((await learnerSessions({ enrollments, sessions: deps.sessions, clock }, 'ann')).items.map((s) => s.id)).toEqual([later.id]);
  });
});

describe("a session's calendar file", () => {
  it('is an RFC 5545 REQUEST with a stable UID and the sequence, then a CANCEL of the same UID', async () => {
    const { deps, sessions } = await setup();
    const made = await scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body });
    const context = { courseTitle: 'Knife skills', organizer: { name: 'Knife School', email: 'mail@example.com' }, uidDomain: 'courses.example' };
    const first = sessionCalendar((await sessions.get('course-1', made.id))!, context);
    expect(first).toContain('METHOD:REQUEST');
    expect(first).toContain(`UID:session-${made.id}@courses.example`);
    expect(first).toContain('SEQUENCE:0');
    expect(first).toContain('DTSTART:20261122T180000Z');
    expect(first).toContain('DTEND:20261122T190000Z');
    expect(first).not.toContain(made.hostUrl);

    await updateSession(deps, { creatorId: 'c1', courseId: 'course-1', sessionId: made.id, body: { durationMinutes: 30 } });
    const moved = sessionCalendar((await sessions.get('course-1', made.id))!, context);
    expect(moved).toContain('SEQUENCE:1');
    expect(moved).toContain('DTEND:20261122T183000Z');

    await cancelSession(deps, { creatorId: 'c1', courseId: 'course-1', sessionId: made.id });
    const cancelled = sessionCalendar((await sessions.get('course-1', made.id))!, context);
    expect(cancelled).toContain('METHOD:CANCEL');
    expect(cancelled).toContain('STATUS:CANCELLED');
    expect(cancelled).toContain('SEQUENCE:2');
    expect(cancelled).toContain(`UID:session-${made.id}@courses.example`);
  });
});

describe("a learner's calendar file", () => {
  it('is served to a learner enrolled in the course, and 404 to anyone else', async () => {
    const { deps } = await setup();
    const enrollments = memoryEnrollments();
    const licenses = memoryLicenses();
    const sources = { enrollments, licenses, clock: testClock() };
    await enrollments.enroll({ courseId: 'course-1', learnerId: 'ann', creatorId: 'c1', learnerEmail: 'ann@example.com', learnerJoinedAt: NOW, courseTitle: 'Knife skills', enrolledAt: NOW });
    const made = await scheduleSession(deps, { creatorId: 'c1', courseId: 'course-1', body });
    const calendar = { organizer: { name: 'Course Platform', email: 'mail@example.com' }, uidDomain: 'courses.example' };
    const file = await learnerSessionCalendar({ ...sources, sessions: deps.sessions, calendar }, { learnerId: 'ann', sessionId: made.id });
    expect(file).toContain('SUMMARY:Live Q&A (Knife skills)');
    expect(file).toContain(`URL;VALUE=URI:${made.joinUrl}`);
    await expect(learnerSessionCalendar({ ...sources, sessions: deps.sessions, calendar }, { learnerId: 'bob', sessionId: made.id })).rejects.toBeInstanceOf(NotFoundError);
    await expect(learnerSessionCalendar({ ...sources, sessions: deps.sessions, calendar }, { learnerId: 'ann', sessionId: 'nope' })).rejects.toBeInstanceOf(NotFoundError);
    // A seat on a team licence that has ended opens the course no more: nor its sessions' files.
    await licenses.create({ id: 'lic_1', courseId: 'course-1', courseTitle: 'Knife skills', creatorId: 'c1', leaderId: 'lead', leaderEmail: 'lead@example.com', seatsTotal: 2, seatsUsed: 1, expiresAt: null, status: 'ended', source: 'granted', orderId: null, createdAt: NOW });
    await enrollments.enroll({ courseId: 'course-1', learnerId: 'cat', creatorId: 'c1', learnerEmail: 'cat@example.com', learnerJoinedAt: NOW, courseTitle: 'Knife skills', enrolledAt: NOW, licenseId: 'lic_1' });
    await expect(learnerSessionCalendar({ ...sources, sessions: deps.sessions, calendar }, { learnerId: 'cat', sessionId: made.id })).rejects.toBeInstanceOf(NotFoundError);
  });
});
