import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Slice } from '#core/jobs/ports.ts';
import type { DueDeps } from '#core/live-sessions/due.ts';
import { SESSION_SUBJECTS } from '#core/live-sessions/invitations.ts';
import type { StoredSession } from '#core/live-sessions/ports.ts';
import { dynamoSessions, sessionKeys } from '#data/live-sessions.ts';
import { sessionMailRuns } from '#functions/composition/deps-live-sessions.ts';
import { work as dueWork } from '#functions/jobs/sessions-due.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { faults } from './faults/support.ts';
import { mailsTo } from './mail-support.ts';
import { accountWithRole, api, eventually, useLocalCloudEnv } from './support.ts';
import { demoZoom, zoomMeetings } from './zoom-support.ts';

type Account = Awaited<ReturnType<typeof accountWithRole>>;

/**
 * The sessions' due job on the local cloud (issue 30 points 3 and 4): a change or a cancellation made while Zoom is
 * down (the fault proxy) is saved and answered as pending, the stand-in's meeting untouched; once Zoom is back, the
 * job's run (a few minutes later by its clock) makes the meeting follow and the session reads done. A session within
 * the hour has its reminder run started on the 'session-mail' queue and is marked reminded. The job's runs here see
 * this file's sessions only (the scheduler's own runs every minute see every session, as in the cloud).
 */
const meetingOf = async (joinUrl: string) => (await zoomMeetings()).find((m) => m.join_url === joinUrl);

const inMinutes = (minutes: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 + minutes * 60_000).toISOString();

let creator: Account;
let courseId: string;
const mine = new Set<string>();

/**
 * One run of the job as its schedule starts it, `minutes` from now by its clock, over this file's sessions, its
 * reminder runs' slices sent to a queue the test reads.
 */
const runJob = async (minutes: number, startRuns: 'recorded' | 'on the cloud' = 'recorded') => {
  const slices: Slice[] = [];
  const sessions = dynamoSessions();
  const replaced: Partial<DueDeps> = {
    clock: { now: () => new Date(Date.now() + minutes * 60_000) },
    sessions: {
      ...sessions,
      async due(now, limit, after) {
        const page = await sessions.due(now, limit, after);
        return { ...page, items: page.items.filter((s) => mine.has(s.id)) };
      },
    },
    ...(startRuns === 'recorded' ? { mailRuns: sessionMailRuns(() => ({ send: async (sent) => void slices.push(...sent) })) } : {}),
  };
  const { counts } = await runToEnd('sessions-due', (remainingMs) => dueWork(remainingMs, replaced));
  return { counts, slices };
};

const stored = async (id: string): Promise<StoredSession> => (await dynamoSessions().find(id))!;

const schedule = async (title: string, startsAt: string) => {
  const made = await api('POST', `/api/courses/${courseId}/sessions`, { token: creator.token, body: { title, startsAt, durationMinutes: 45, provider: 'zoom' } });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  mine.add(made.body.id as string);
  return made.body as { id: string; joinUrl: string; startsAt: string };
};

beforeAll(async () => {
  useLocalCloudEnv();
  creator = await accountWithRole('creator', 'sessions-due');
  expect((await api('PUT', '/api/integrations', { token: creator.token, body: demoZoom() })).body.zoom.status).toBe('connected');
  courseId = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Due sessions' } })).body.id as string;
}, 120_000);

afterEach(() => faults.recover());

describe('a change while Zoom is down', () => {
  it('is saved and answered pending, Zoom keeping the old time; once Zoom is back the job moves the meeting and the session reads done', async () => {
    const session = await schedule('Moving Q&A', inMinutes(3 * 24 * 60));
    const later = inMinutes(4 * 24 * 60);

    await faults.set('zoom', { down: true });
    const moved = await api('PATCH', `/api/courses/${courseId}/sessions/${session.id}`, { token: creator.token, body: { startsAt: later } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ startsAt: later, providerSync: 'pending', providerError: expect.stringMatching(/^Zoom/) });
    const listed = await api('GET', `/api/courses/${courseId}/sessions`, { token: creator.token });
    expect(listed.body.items.find((s: { id: string }) => s.id === session.id)).toMatchObject({ startsAt: later, providerSync: 'pending' });
    expect(Date.parse((await meetingOf(session.joinUrl))!.start_time)).toBe(Date.parse(session.startsAt));

    // Still down at the job's first retry: tried again later, the reason kept.
    const down = await runJob(15);
    expect(down.counts).toMatchObject({ synced: 0, retrying: 1 });
    expect((await stored(session.id)).providerPending).toMatchObject({ action: 'update', tries: 2, error: expect.stringMatching(/^Zoom/) });

    await faults.recover();
    expect(Date.parse((await meetingOf(session.joinUrl))!.start_time)).toBe(Date.parse(session.startsAt));
    const back = await runJob(30);
    expect(back.counts).toMatchObject({ synced: 1 });
    expect(Date.parse((await meetingOf(session.joinUrl))!.start_time)).toBe(Date.parse(later));
    const after = (await api('GET', `/api/courses/${courseId}/sessions`, { token: creator.token })).body.items.find((s: { id: string }) => s.id === session.id);
    expect(after).toMatchObject({ startsAt: later, providerSync: 'done' });
    expect(after).not.toHaveProperty('providerError');
    expect((await runJob(60)).counts).toMatchObject({ synced: 0, retrying: 0 });
  });
});

describe('a cancellation while Zoom is down', () => {
  it('cancels at once, answered pending with the meeting still at Zoom; once Zoom is back the job deletes it', async () => {
    const session = await schedule('Cancelled Q&A', inMinutes(2 * 24 * 60));
    await faults.set('zoom', { down: true });
    const cancelled = await api('DELETE', `/api/courses/${courseId}/sessions/${session.id}`, { token: creator.token });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body).toMatchObject({ id: session.id, status: 'cancelled', providerSync: 'pending', providerError: expect.stringMatching(/^Zoom/) });
    await faults.recover();
    expect(await meetingOf(session.joinUrl)).toBeDefined();
    // Cancelled again: done already (the deletion still the job's).
    expect((await api('DELETE', `/api/courses/${courseId}/sessions/${session.id}`, { token: creator.token })).status).toBe(204);

    expect((await runJob(2)).counts).toMatchObject({ synced: 1 });
    expect(await meetingOf(session.joinUrl)).toBeUndefined();
    const after = (await api('GET', `/api/courses/${courseId}/sessions`, { token: creator.token })).body.items.find((s: { id: string }) => s.id === session.id);
    expect(after).toMatchObject({ status: 'cancelled', providerSync: 'done' });
  });

  it('with Zoom up, is 204 and deleted at Zoom at once, as before', async () => {
    const session = await schedule('Plain cancel', inMinutes(2 * 24 * 60));
    expect((await api('DELETE', `/api/courses/${courseId}/sessions/${session.id}`, { token: creator.token })).status).toBe(204);
    expect(await meetingOf(session.joinUrl)).toBeUndefined();
  });
});

describe('the reminder an hour before', () => {
  it("starts a session's reminder run on the 'session-mail' queue once, and marks the session reminded for its start", async () => {
    // Three hours ahead, the job's run 2.5 hours from now: the session is 30 minutes ahead by the job's clock (the
    // scheduler's own runs, on the real clock, leave it alone).
    const session = await schedule('Soon', inMinutes(180));
    expect((await runJob(0)).counts).toMatchObject({ reminded: 0 });
    const first = await runJob(150);
    expect(first.counts).toMatchObject({ reminded: 1 });
    expect(first.slices).toEqual([
      {
        job: 'session-mail',
        run: `session-mail@${session.id}@reminder@${session.startsAt}`,
        lane: 'main',
        seq: 0,
        input: { sessionId: session.id, courseId, mail: 'reminder', sequence: 0, startsAt: session.startsAt },
      },
    ]);
    expect((await stored(session.id)).remindedFor).toBe(session.startsAt);
    // Reminded: off the due index.
    expect((await dynamoSessions().due(inMinutes(240), 100)).items).not.toContainEqual(expect.objectContaining({ id: session.id }));
    expect((await runJob(151)).slices).toEqual([]);
  });

  it('is not due for a session more than an hour ahead, and is due again for a new start', async () => {
    const session = await schedule('Later', inMinutes(24 * 60));
    expect((await runJob(0)).counts).toMatchObject({ reminded: 0 });
    const item = await stored(session.id);
    expect(sessionKeys.due(item)).toEqual({ gsi3pk: 'SESSIONS#DUE', gsi3sk: `${new Date(Date.parse(session.startsAt) - 3_600_000).toISOString()}#${session.id}` });
    const reminded = await runJob(23 * 60);
    expect(reminded.slices.map((s) => s.run)).toEqual([`session-mail@${session.id}@reminder@${session.startsAt}`]);

    const moved = inMinutes(48 * 60);
    expect((await api('PATCH', `/api/courses/${courseId}/sessions/${session.id}`, { token: creator.token, body: { startsAt: moved } })).body).toMatchObject({ providerSync: 'done' });
    expect((await runJob(23 * 60 + 1)).slices).toEqual([]);
    expect((await runJob(47 * 60)).slices.map((s) => s.input)).toEqual([expect.objectContaining({ sessionId: session.id, startsAt: moved, sequence: 1 })]);
  });

  it("reaches each enrolled learner's inbox once, with the join link, through the 'session-mail' job on the cloud", async () => {
    const learner = await accountWithRole('learner', 'sessions-due-reminded');
    expect((await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
    expect((await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: learner.email } })).status).toBe(201);
    const session = await schedule('Reminded', inMinutes(4 * 60));
    expect((await runJob(3 * 60 + 30, 'on the cloud')).counts).toMatchObject({ reminded: 1 });
    const reminders = async () => (await mailsTo(learner.email)).filter((m) => m.subject === SESSION_SUBJECTS.reminder);
    await eventually(reminders, (mails) => mails.length >= 1, 45_000);
    // A second run of the job, or a replay of the run, sends nothing more.
    expect((await runJob(3 * 60 + 31, 'on the cloud')).counts).toMatchObject({ reminded: 0 });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const got = await reminders();
    expect(got).toHaveLength(1);
    expect(got[0]!.body.text).toContain(`Join: ${session.joinUrl}`);
    expect(got[0]!.body.text).toContain('Session: Reminded');
  }, 90_000);
});

describe('the due index', () => {
  it('pages by the cursor it hands out, earliest due first, and refuses a cursor of another listing', async () => {
    await schedule('Paged one', inMinutes(5 * 24 * 60));
    await schedule('Paged two', inMinutes(5 * 24 * 60 + 1));
    const sessions = dynamoSessions();
    const until = inMinutes(6 * 24 * 60);
    const first = await sessions.due(until, 1);
    expect(first.items).toHaveLength(1);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await sessions.due(until, 1, first.nextCursor!);
    expect(second.items).toHaveLength(1);
    expect(second.items[0]!.id).not.toBe(first.items[0]!.id);
    expect(sessionKeys.due(second.items[0]!).gsi3sk! >= sessionKeys.due(first.items[0]!).gsi3sk!).toBe(true);
    const foreign = Buffer.from(JSON.stringify({ pk: 'COURSE#x', sk: 'COURSE', gsi3pk: 'CERTS#DUE', gsi3sk: 'x' })).toString('base64url');
    await expect(sessions.due(until, 1, foreign)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});

describe('the job\'s write', () => {
  it('loses to a change of the session since it was read', async () => {
    const session = await schedule('Raced', inMinutes(3 * 24 * 60));
    const sessions = dynamoSessions();
    const read = await stored(session.id);
    expect(await sessions.save({ ...read, title: 'Changed meanwhile', sequence: read.sequence + 1 }, read.sequence)).toBe('saved');
    expect(await sessions.settle({ ...read, remindedFor: read.startsAt }, read)).toBe('changed');
    const pendingRead = await stored(session.id);
    expect(await sessions.settle({ ...pendingRead, providerPending: { action: 'update', tries: 1, nextAt: inMinutes(1), error: 'Zoom answered 503.' } }, pendingRead)).toBe('saved');
    // Another run's write from the same read: the first one's stands.
    expect(await sessions.settle({ ...pendingRead, remindedFor: pendingRead.startsAt }, pendingRead)).toBe('changed');
    expect(await stored(session.id)).toMatchObject({ title: 'Changed meanwhile', providerPending: { tries: 1 } });
  });
});
