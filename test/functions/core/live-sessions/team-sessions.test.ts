import { describe, expect, it } from 'vitest';
import { leaderSessions, learnerSessions, scheduleSession, cancelSession, type SessionDeps } from '#core/live-sessions/sessions.ts';
import type { CourseRecord, StoredLicense } from '#core/ports.ts';
import { NOW, sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { courseRecord, memoryCourses } from '#test/functions/fakes/courses.ts';
import { memoryEnrollments } from '#test/functions/fakes/enrollments.ts';
import { memoryLicenses } from '#test/functions/fakes/licenses.ts';
import { connectedProviders, memoryMailRuns, memoryMeetings, memorySessions } from '#test/functions/fakes/live-sessions.ts';

/** Issue 30 point 2: a learner's sessions of one course (the course player), and a group leader's team sessions. */

const course = (id: string, creatorId: string, title: string): CourseRecord => courseRecord({ id, creatorId, title, description: '' });

const license = (over: Partial<StoredLicense>): StoredLicense => ({
  id: 'lic-1',
  courseId: 'knives',
  courseTitle: 'Knife skills',
  creatorId: 'c1',
  leaderId: 'lea',
  leaderEmail: 'lea@example.com',
  seatsTotal: 5,
  seatsUsed: 0,
  expiresAt: null,
  status: 'active',
  source: 'granted',
  orderId: null,
  createdAt: NOW,
  ...over,
});

const at = (day: number, hour = 18) => `2026-11-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`;

const setup = async () => {
  const courses = memoryCourses();
  for (const c of [course('knives', 'c1', 'Knife skills'), course('bread', 'c1', 'Bread'), course('cakes', 'c1', 'Cakes'), course('other', 'c2', 'Pottery')]) await courses.create(c);
  const sessions = memorySessions();
  const clock = testClock();
  const deps: SessionDeps = {
    courses,
    sessions,
    providers: memoryMeetings('zoom').providers,
    credentials: connectedProviders('zoom'),
    ids: sequentialIds('s'),
    clock,
    sessionIdFor: (creatorId, key) => `k-${creatorId}-${key}`,
    mailRuns: memoryMailRuns(),
    log: () => undefined,
  };
  const schedule = (creatorId: string, courseId: string, title: string, startsAt: string) =>
    scheduleSession(deps, { creatorId, courseId, body: { title, startsAt, durationMinutes: 60, provider: 'zoom' } });
  return { deps, clock, schedule };
};

describe("a learner's sessions of one course (the course player)", () => {
  it("lists that course's upcoming sessions only, and none for a course the learner is not enrolled in", async () => {
    const { deps, clock, schedule } = await setup();
    const enrollments = memoryEnrollments();
    for (const [courseId, courseTitle] of [['knives', 'Knife skills'], ['bread', 'Bread']] as const) {
      await enrollments.enroll({ courseId, learnerId: 'ann', creatorId: 'c1', learnerEmail: 'ann@example.com', learnerJoinedAt: NOW, courseTitle, enrolledAt: NOW });
    }
    const later = await schedule('c1', 'knives', 'Sharpening', at(25));
    const sooner = await schedule('c1', 'knives', 'Dicing', at(22));
    const bread = await schedule('c1', 'bread', 'Proofing', at(23));
    await schedule('c1', 'cakes', 'Icing', at(23));
    const read = { enrollments, sessions: deps.sessions, clock };

    expect((await learnerSessions(read, 'ann', { courseId: 'knives' })).items.map((s) => [s.title, s.courseTitle])).toEqual([
      ['Dicing', 'Knife skills'],
      ['Sharpening', 'Knife skills'],
    ]);
    expect((await learnerSessions(read, 'ann')).items.map((s) => s.id)).toEqual([sooner.id, bread.id, later.id]);
    expect((await learnerSessions(read, 'ann', { courseId: 'cakes' })).items).toEqual([]);
    expect((await learnerSessions(read, 'ann', { courseId: 'nope' })).items).toEqual([]);
  });
});

describe("a group leader's team sessions", () => {
  it('lists the upcoming sessions of the courses their licences cover while these give access, soonest first, once each, without the host link', async () => {
    const { deps, clock, schedule } = await setup();
    const licenses = memoryLicenses();
    await licenses.create(license({ id: 'lic-1', courseId: 'knives', courseTitle: 'Knife skills' }));
    // A second licence of the same course: its sessions are listed once.
    await licenses.create(license({ id: 'lic-2', courseId: 'knives', courseTitle: 'Knife skills', source: 'purchased' }));
    await licenses.create(license({ id: 'lic-3', courseId: 'bread', courseTitle: 'Bread', expiresAt: at(30) }));
    // Ended, and expired: their courses' sessions are not the team's any more.
    await licenses.create(license({ id: 'lic-4', courseId: 'cakes', courseTitle: 'Cakes', status: 'ended' }));
    await licenses.create(license({ id: 'lic-5', courseId: 'other', courseTitle: 'Pottery', creatorId: 'c2', expiresAt: at(20) }));
    // Another leader's licence.
    await licenses.create(license({ id: 'lic-6', courseId: 'other', courseTitle: 'Pottery', creatorId: 'c2', leaderId: 'someone-else' }));

    const knives = await schedule('c1', 'knives', 'Dicing', at(24));
    const bread = await schedule('c1', 'bread', 'Proofing', at(22));
    const dropped = await schedule('c1', 'bread', 'Dropped', at(23));
    await cancelSession(deps, { creatorId: 'c1', courseId: 'bread', sessionId: dropped.id });
    await schedule('c1', 'cakes', 'Icing', at(22));
    await schedule('c2', 'other', 'Glazing', at(22));

    const read = { licenses, sessions: deps.sessions, clock };
    const listed = await leaderSessions(read, 'lea');
    expect(listed.items.map((s) => s.id)).toEqual([bread.id, knives.id]);
    expect(listed.items[1]).toEqual({
      id: knives.id,
      courseId: 'knives',
      courseTitle: 'Knife skills',
      title: 'Dicing',
      description: '',
      startsAt: at(24),
      durationMinutes: 60,
      provider: 'zoom',
      joinUrl: knives.joinUrl,
    });
    expect(JSON.stringify(listed)).not.toContain(knives.hostUrl);

    // Once a session has ended it leaves the list; no licence, no sessions.
    clock.set('2026-11-22T19:30:00.000Z');
    expect((await leaderSessions(read, 'lea')).items.map((s) => s.id)).toEqual([knives.id]);
    expect((await leaderSessions(read, 'nobody')).items).toEqual([]);
  });
});
