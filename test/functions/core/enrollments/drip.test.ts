import { describe, expect, it } from 'vitest';
import { type Lesson, type LessonRelease, quizDefinition } from '#contracts/courses.ts';
import { AppError } from '#core/errors.ts';
import { availableAt, lockedUntil, nextNoticeAt, noticesDue, openLessonIds } from '#core/enrollments/drip.ts';
import { type DripDueDeps, replanDrip, runDripDue } from '#core/enrollments/drip-notices.ts';
import { LESSON_READY_SUBJECT } from '#core/enrollments/lesson-ready-email.ts';
import { completeLesson, learnerCourseDetail, learnerCourseOutline, learnerLesson } from '#core/enrollments/learner-courses.ts';
import { submitQuizAttempt } from '#core/enrollments/quiz-attempts.ts';
import type { StoredCourse } from '#core/ports.ts';
import { NOW, sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { courseLesson, courseRecord } from '#test/functions/fakes/courses.ts';
import { memoryDripPlans } from '#test/functions/fakes/drip.ts';
import { memoryCourseReader, memoryEnrollments } from '#test/functions/fakes/enrollments.ts';
import { memoryLicenses } from '#test/functions/fakes/licenses.ts';
import { memoryPublicProfiles } from '#test/functions/fakes/public-profiles.ts';
import { memoryQuizAttempts } from '#test/functions/fakes/quiz-attempts.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';

/** Drip release (issue 33 part 1): the rule with a clock, the learner's routes on locked lessons, and the notices. */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(Date.parse(NOW) + ms).toISOString();
const inTwoDays: LessonRelease = { kind: 'afterEnrollment', days: 2 };
const inAnHour: LessonRelease = { kind: 'date', at: at(HOUR) };

describe('when a lesson opens (the pure rule, with a clock)', () => {
  it('opens an immediate lesson at once, a dated one at its date for everyone, a relative one days after each enrolment', () => {
    expect(availableAt({ kind: 'immediate' }, NOW)).toBeNull();
    expect(availableAt(undefined, NOW)).toBeNull();
    expect(availableAt(inAnHour, at(-DAY))).toBe(at(HOUR));
    expect(availableAt(inTwoDays, NOW)).toBe(at(2 * DAY));
    expect(availableAt(inTwoDays, at(DAY))).toBe(at(3 * DAY));
    const now = new Date(at(2 * DAY - 1));
    expect(lockedUntil(inTwoDays, NOW, now)).toBe(at(2 * DAY));
    expect(lockedUntil(inTwoDays, NOW, new Date(at(2 * DAY)))).toBeUndefined();
  });

  it('counts only the lessons open now, and notices only those that were locked when the learner enrolled', () => {
    const lessons = [{ id: 'now' }, { id: 'soon', release: inAnHour }, { id: 'later', release: inTwoDays }, { id: 'past', release: { kind: 'date', at: at(-HOUR) } as LessonRelease }];
    expect(openLessonIds(lessons, NOW, new Date(NOW))).toEqual(['now', 'past']);
    expect(openLessonIds(lessons, NOW, new Date(at(HOUR)))).toEqual(['now', 'soon', 'past']);
    // 'past' was open when they enrolled: never noticed; 'now' neither.
    expect(noticesDue(lessons, NOW, [], new Date(at(HOUR)))).toEqual(['soon']);
    expect(noticesDue(lessons, NOW, ['soon'], new Date(at(HOUR)))).toEqual([]);
    expect(nextNoticeAt(lessons, NOW, [])).toBe(at(HOUR));
    expect(nextNoticeAt(lessons, NOW, ['soon'])).toBe(at(2 * DAY));
    expect(nextNoticeAt(lessons, NOW, ['soon', 'later'])).toBeUndefined();
    // A learner enrolling after the date finds it open: no notice, nothing planned for it.
    expect(nextNoticeAt(lessons, at(2 * HOUR), [])).toBe(at(2 * HOUR + 2 * DAY));
  });
});

const QUIZ = quizDefinition.parse({ passPercent: 100, questions: [{ prompt: 'Two plus two?', type: 'single', options: ['3', '4'], correct: [1] }] });

const lesson = (id: string, position: number, over: Partial<Lesson> = {}): Lesson => courseLesson(id, position, null, { body: `<p>Body of ${id}</p>`, ...over });

const dripCourse = (): StoredCourse => ({
  ...courseRecord({ id: 'c1', creatorId: 'u1', title: 'Basics', lessonCount: 3 }),
  lessons: [
    lesson('l1', 0),
    lesson('l2', 1, { title: 'Week two', release: inTwoDays, files: [{ id: 'f1', lessonId: 'l2', kind: 'attachment', name: 'notes.pdf', contentType: 'application/pdf', size: 1, status: 'ready', createdAt: NOW }] }),
    lesson('q1', 2, { kind: 'quiz', title: 'Final quiz', body: null, quiz: QUIZ, release: inAnHour }),
  ],
});

const setup = async () => {
  const reader = memoryCourseReader([dripCourse()]);
  const clock = testClock();
  const enrollments = memoryEnrollments();
  const deps = { courses: reader, enrollments, licenses: memoryLicenses(), quizzes: memoryQuizAttempts(), profiles: memoryPublicProfiles(), branding: async () => null, clock };
  const enroll = (learnerId: string, enrolledAt = clock.now().toISOString()) =>
    enrollments.enroll({ courseId: 'c1', learnerId, creatorId: 'u1', learnerEmail: `${learnerId}@example.com`, learnerJoinedAt: NOW, courseTitle: 'Basics', enrolledAt });
  await enroll('ann');
  return { deps, clock, enroll };
};

const lockedError = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return { code: (error as AppError).code, details: (error as AppError).details };
};

describe("a locked lesson on the learner's routes", () => {
  it('is listed with its opening date and none of its content, in the course and in the outline', async () => {
    const { deps } = await setup();
    const detail = await learnerCourseDetail(deps, { learnerId: 'ann', courseId: 'c1' });
    expect(detail.lessons[1]).toEqual({ id: 'l2', title: 'Week two', kind: 'text', position: 1, body: null, videoUrl: null, files: [], quiz: null, completed: false, locked: true, availableAt: at(2 * DAY) });
    expect(detail.lessons[2]).toMatchObject({ id: 'q1', locked: true, availableAt: at(HOUR), quiz: null });
    expect(detail.lessons[0]).toMatchObject({ id: 'l1', locked: false, body: '<p>Body of l1</p>' });
    const outline = await learnerCourseOutline(deps, { learnerId: 'ann', courseId: 'c1' });
    expect(outline.lessons.map((l) => [l.id, l.locked, l.availableAt])).toEqual([
      ['l1', false, null],
      ['l2', true, at(2 * DAY)],
      ['q1', true, at(HOUR)],
    ]);
  });

  it('answers 403 LESSON_LOCKED with availableAt on its content, completion and quiz attempts; all open when the time comes', async () => {
    const { deps, clock } = await setup();
    expect(await lockedError(learnerLesson(deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'l2' }))).toEqual({ code: 'LESSON_LOCKED', details: { availableAt: at(2 * DAY) } });
    expect(await lockedError(completeLesson(deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'l2' }))).toEqual({ code: 'LESSON_LOCKED', details: { availableAt: at(2 * DAY) } });
    expect(await lockedError(submitQuizAttempt(deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'q1', body: { answers: [[1]] } }))).toEqual({ code: 'LESSON_LOCKED', details: { availableAt: at(HOUR) } });
    expect((await deps.enrollments.get('c1', 'ann'))?.completedLessonIds).toEqual([]);
    clock.set(at(HOUR));
    expect((await submitQuizAttempt(deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'q1', body: { answers: [[1]] } })).passed).toBe(true);
    clock.set(at(2 * DAY));
    expect(await learnerLesson(deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'l2' })).toMatchObject({ id: 'l2', body: '<p>Body of l2</p>', locked: false, availableAt: at(2 * DAY) });
  });

  it('counts progress over the open lessons, and completes the course (its certificate) only once every lesson is done', async () => {
    const { deps, clock } = await setup();
    // Only l1 is open: done, that is all the learner can do now, but the course is not finished.
    expect(await completeLesson(deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'l1' })).toEqual({ progress: 100, completedAt: null });
    clock.set(at(HOUR));
    // The quiz opened: the player's progress counts it at once.
    expect((await learnerCourseOutline(deps, { learnerId: 'ann', courseId: 'c1' })).progress).toBe(50);
    expect((await submitQuizAttempt(deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'q1', body: { answers: [[1]] } })).completedAt).toBeNull();
    clock.set(at(2 * DAY));
    expect(await completeLesson(deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'l2' })).toEqual({ progress: 100, completedAt: at(2 * DAY) });
  });
});

const dueWorld = async () => {
  const { deps, clock, enroll } = await setup();
  const drip = memoryDripPlans(() => [...['ann', 'bob', 'cat']].map((learnerId) => ({ courseId: 'c1', learnerId, enrolledAt: NOW, status: 'active' as const })));
  const started: string[] = [];
  const dueDeps: DripDueDeps = {
    plans: drip.store,
    courses: deps.courses,
    enrollments: deps.enrollments,
    school: async () => ({ name: 'Paint School', logoUrl: null }),
    appOrigin: 'https://app.example.com',
    startSender: async (key) => void started.push(key),
    ids: sequentialIds('mail'),
    clock,
    warn: () => undefined,
  };
  // The enrolment's plan, as data/enrollments.ts writes it: its first notice due.
  await drip.store.schedule('c1', 'ann', at(HOUR));
  const sweep = async () => (await runToEnd('drip-due', () => runDripDue(dueDeps))).counts;
  return { deps, clock, enroll, drip, started, sweep, dueDeps };
};

describe('"A new lesson is ready"', () => {
  it('is queued once per learner and lesson as each opens, branded, whatever the sweeps do', async () => {
    const { clock, drip, started, sweep } = await dueWorld();
    expect(await sweep()).toMatchObject({ noticed: 0 });
    clock.set(at(HOUR));
    expect(await sweep()).toMatchObject({ noticed: 1 });
    expect(drip.queued).toHaveLength(1);
    expect(drip.queued[0]).toMatchObject({ to: 'ann@example.com', subject: LESSON_READY_SUBJECT, fromName: 'Paint School' });
    expect(drip.queued[0]!.text).toContain('"Final quiz"');
    expect(drip.queued[0]!.text).toContain('https://app.example.com/dashboard/learner/courses/c1?lesson=q1');
    expect(started).toHaveLength(1);
    // Run again, and twice at once: nothing more.
    await Promise.all([sweep(), sweep(), sweep()]);
    expect(drip.queued).toHaveLength(1);
    expect(drip.plans.get('c1/ann')).toMatchObject({ noticed: ['q1'], dueAt: at(2 * DAY) });
    clock.set(at(3 * DAY));
    await Promise.all([sweep(), sweep()]);
    expect(drip.queued.map((m) => m.text.includes('"Week two"'))).toEqual([false, true]);
    expect(drip.plans.get('c1/ann')?.dueAt).toBeUndefined();
  });

  it('is never sent for a lesson open from the start, nor to a learner removed meanwhile', async () => {
    const { deps, clock, enroll, drip, sweep } = await dueWorld();
    // bob enrols after the quiz's date: only week two (2 days after his enrolment) is his to be told of.
    clock.set(at(2 * HOUR));
    await enroll('bob');
    await drip.store.schedule('c1', 'bob', at(2 * HOUR + 2 * DAY));
    await deps.enrollments.remove('c1', 'ann');
    await sweep();
    expect(drip.queued).toEqual([]);
    expect(drip.plans.get('c1/ann')?.dueAt).toBeUndefined();
    clock.set(at(3 * DAY));
    await sweep();
    expect(drip.queued.map((m) => [m.to, m.text.includes('"Week two"')])).toEqual([['bob@example.com', true]]);
  });

  it("plans every enrolment again when a release changes, so no one's notice is lost or early", async () => {
    const { drip } = await dueWorld();
    // The creator moves the quiz to open in ten minutes: ann's plan moves up; bob and cat (no plan yet) get one.
    const moved = { ...dripCourse(), lessons: dripCourse().lessons.map((l) => (l.id === 'q1' ? { ...l, release: { kind: 'date', at: at(HOUR / 6) } as LessonRelease } : l)) };
    const reader = memoryCourseReader([moved]);
    const counts = (await runToEnd('course-changed', () => async (slice, timeUp) => replanDrip({ plans: drip.store, courses: reader }, 'c1', slice.cursor, timeUp))).counts;
    expect(counts).toMatchObject({ planned: 3 });
    expect([...drip.plans.values()].map((p) => [p.learnerId, p.dueAt])).toEqual([
      ['ann', at(HOUR / 6)],
      ['bob', at(HOUR / 6)],
      ['cat', at(HOUR / 6)],
    ]);
    // Done again: nothing changes.
    expect((await runToEnd('course-changed', () => async (slice, timeUp) => replanDrip({ plans: drip.store, courses: reader }, 'c1', slice.cursor, timeUp))).counts).toMatchObject({ planned: 0, unchanged: 3 });
  });
});
