import { beforeAll, describe, expect, it } from 'vitest';
import { accountWithRole, api, outputs } from './support.ts';
import { demoZoom, zoomMeetings } from './zoom-support.ts';

type Account = Awaited<ReturnType<typeof accountWithRole>>;

/**
 * Live sessions through the local cloud (issue 30 point 2 and 4): a Pro creator with the Zoom stand-in's demo app
 * schedules, moves and cancels a session of their course; the meeting follows at the stand-in; the enrolled learner
 * lists it (never its host link) and downloads its calendar file, which follows too; a provider that is not connected
 * is 409 with nothing made.
 */

const calendarFile = async (token: string, sessionId: string) => {
  const res = await fetch(`${outputs().ApiUrl}/api/learner/sessions/${sessionId}/calendar.ics`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
};

const inDays = (days: number, hour = 18) => {
  const at = new Date(Date.now() + days * 86_400_000);
  at.setUTCHours(hour, 0, 0, 0);
  return at.toISOString();
};

let creator: Account;
let learner: Account;
let outsider: Account;
let courseId: string;

beforeAll(async () => {
  [creator, learner, outsider] = await Promise.all([accountWithRole('creator', 'sessions-creator'), accountWithRole('learner', 'sessions-learner'), accountWithRole('learner', 'sessions-outsider')]);
  expect((await api('PUT', '/api/integrations', { token: creator.token, body: demoZoom() })).body.zoom.status).toBe('connected');
  courseId = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Sourdough live' } })).body.id as string;
  expect((await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
  expect((await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: learner.email } })).status).toBe(201);
}, 120_000);

describe('a live session in Zoom', () => {
  it('is made at Zoom, listed for the learner with its calendar file, moved and cancelled there too', async () => {
    const startsAt = inDays(3);
    const made = await api('POST', `/api/courses/${courseId}/sessions`, {
      token: creator.token,
      body: { title: 'Shaping Q&A', startsAt, durationMinutes: 45, provider: 'zoom', description: 'Bring your dough.', timeZone: 'Europe/London' },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ courseId, title: 'Shaping Q&A', startsAt, durationMinutes: 45, provider: 'zoom', status: 'scheduled' });
    const session = made.body as { id: string; joinUrl: string; hostUrl: string };
    const atZoom = (await zoomMeetings()).find((m) => m.join_url === session.joinUrl);
    expect(atZoom).toMatchObject({ topic: 'Shaping Q&A', duration: 45 });
    expect(Date.parse(atZoom!.start_time)).toBe(Date.parse(startsAt));
    expect(session.hostUrl).not.toBe(session.joinUrl);

    const listed = await api('GET', `/api/courses/${courseId}/sessions`, { token: creator.token });
    expect(listed.body.items.map((s: { id: string }) => s.id)).toContain(session.id);

    const mine = await api('GET', '/api/learner/sessions', { token: learner.token });
    expect(mine.status).toBe(200);
    const seen = mine.body.items.find((s: { id: string }) => s.id === session.id);
    expect(seen).toEqual({ id: session.id, courseId, courseTitle: 'Sourdough live', title: 'Shaping Q&A', description: 'Bring your dough.', startsAt, durationMinutes: 45, provider: 'zoom', joinUrl: session.joinUrl });
    expect(JSON.stringify(mine.body)).not.toContain(session.hostUrl);

    const file = await calendarFile(learner.token, session.id);
    expect(file.status).toBe(200);
    expect(file.type).toMatch(/^text\/calendar/);
    expect(file.text).toContain('METHOD:REQUEST');
    expect(file.text).toContain('SEQUENCE:0');
    const uid = /UID:(.+)\r?\n/.exec(file.text)?.[1];
    expect(uid).toMatch(new RegExp(`^session-${session.id}@`));
    expect((await calendarFile(outsider.token, session.id)).status).toBe(404);

    const later = inDays(4, 9);
    const moved = await api('PATCH', `/api/courses/${courseId}/sessions/${session.id}`, { token: creator.token, body: { startsAt: later, durationMinutes: 60 } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const movedAtZoom = (await zoomMeetings()).find((m) => m.join_url === session.joinUrl);
    expect(movedAtZoom).toMatchObject({ duration: 60 });
    expect(Date.parse(movedAtZoom!.start_time)).toBe(Date.parse(later));
    const movedFile = await calendarFile(learner.token, session.id);
    expect(movedFile.text).toContain('SEQUENCE:1');
    expect(movedFile.text).toContain(`UID:${uid}`);

    expect((await api('DELETE', `/api/courses/${courseId}/sessions/${session.id}`, { token: creator.token })).status).toBe(204);
    expect((await zoomMeetings()).some((m) => m.join_url === session.joinUrl)).toBe(false);
    expect((await api('GET', '/api/learner/sessions', { token: learner.token })).body.items.some((s: { id: string }) => s.id === session.id)).toBe(false);
    const cancelled = await calendarFile(learner.token, session.id);
    expect(cancelled.text).toContain('METHOD:CANCEL');
    expect(cancelled.text).toContain('SEQUENCE:2');
    expect(cancelled.text).toContain(`UID:${uid}`);
  });

  it('with the same Idempotency-Key, a repeat answers the same session and makes one meeting', async () => {
    const body = { title: 'Once only', startsAt: inDays(5), durationMinutes: 30, provider: 'zoom' };
    const headers = { 'idempotency-key': `sessions-${Date.now()}` };
    const first = await api('POST', `/api/courses/${courseId}/sessions`, { token: creator.token, body, headers });
    const again = await api('POST', `/api/courses/${courseId}/sessions`, { token: creator.token, body, headers });
    expect(first.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect((await zoomMeetings()).filter((m) => m.join_url === first.body.joinUrl)).toHaveLength(1);
  });

  it('is 409 INTEGRATION_NOT_CONNECTED for a provider the creator has not connected, with nothing saved', async () => {
    const before = (await api('GET', `/api/courses/${courseId}/sessions`, { token: creator.token })).body.items.length;
    const refused = await api('POST', `/api/courses/${courseId}/sessions`, { token: creator.token, body: { title: 'Teams call', startsAt: inDays(6), durationMinutes: 30, provider: 'teams' } });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'INTEGRATION_NOT_CONNECTED', details: { provider: 'teams' } });
    expect(refused.body.error.message).toMatch(/Microsoft Teams is not connected/);
    expect((await api('GET', `/api/courses/${courseId}/sessions`, { token: creator.token })).body.items).toHaveLength(before);
  });

  it('refuses a start in the past and a duration out of range with the field named', async () => {
    const past = await api('POST', `/api/courses/${courseId}/sessions`, { token: creator.token, body: { title: 'Late', startsAt: inDays(-1), durationMinutes: 30, provider: 'zoom' } });
    expect(past.status).toBe(400);
    expect(past.body.error.details).toEqual([expect.objectContaining({ path: 'startsAt' })]);
    const long = await api('POST', `/api/courses/${courseId}/sessions`, { token: creator.token, body: { title: 'Marathon', startsAt: inDays(2), durationMinutes: 600, provider: 'zoom' } });
    expect(long.status).toBe(400);
  });
});

describe("a course's sessions in the learner's player and on the leader's dashboard", () => {
  it("lists one course's sessions with ?courseId=, and the licensed courses' sessions to their group leader, never the host link", async () => {
    const otherCourse = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Rye live' } })).body.id as string;
    expect((await api('PATCH', `/api/courses/${otherCourse}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
    expect((await api('POST', `/api/courses/${otherCourse}/enrollments`, { token: creator.token, body: { email: learner.email } })).status).toBe(201);
    const schedule = async (course: string, title: string, startsAt: string) => {
      const made = await api('POST', `/api/courses/${course}/sessions`, { token: creator.token, body: { title, startsAt, durationMinutes: 30, provider: 'zoom' } });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      return made.body as { id: string; joinUrl: string; hostUrl: string };
    };
    const here = await schedule(courseId, 'Crumb clinic', inDays(7));
    const there = await schedule(otherCourse, 'Rye clinic', inDays(6));

    const player = await api('GET', `/api/learner/sessions?courseId=${courseId}`, { token: learner.token });
    expect(player.status).toBe(200);
    const ids = player.body.items.map((s: { id: string }) => s.id);
    expect(ids).toContain(here.id);
    expect(ids).not.toContain(there.id);
    expect(player.body.items.every((s: { courseId: string }) => s.courseId === courseId)).toBe(true);
    expect((await api('GET', `/api/learner/sessions?courseId=${otherCourse}`, { token: outsider.token })).body.items).toEqual([]);
    expect((await api('GET', '/api/learner/sessions?course=x', { token: learner.token })).status).toBe(400);

    // A leader holding a licence of the first course sees its sessions (with the join link), not the other course's.
    const leader = await accountWithRole('leader', 'sessions-leader');
    const idle = await accountWithRole('leader', 'sessions-idle-leader');
    const granted = await api('POST', `/api/courses/${courseId}/licenses`, { token: creator.token, body: { leaderEmail: leader.email, seats: 3 } });
    expect(granted.status, JSON.stringify(granted.body)).toBe(201);
    const team = await api('GET', '/api/leader/sessions', { token: leader.token });
    expect(team.status).toBe(200);
    expect(team.body.items.find((s: { id: string }) => s.id === here.id)).toEqual({
      id: here.id,
      courseId,
      courseTitle: 'Sourdough live',
      title: 'Crumb clinic',
      description: '',
      startsAt: inDays(7),
      durationMinutes: 30,
      provider: 'zoom',
      joinUrl: here.joinUrl,
    });
    expect(team.body.items.some((s: { id: string }) => s.id === there.id)).toBe(false);
    expect(JSON.stringify(team.body)).not.toContain(here.hostUrl);
    const starts = team.body.items.map((s: { startsAt: string }) => s.startsAt);
    expect(starts).toEqual([...starts].sort());
    expect((await api('GET', '/api/leader/sessions', { token: idle.token })).body).toEqual({ items: [] });
  });
});
