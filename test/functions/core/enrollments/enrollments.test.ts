import { memoryQuizAttempts } from '#test/functions/fakes/quiz-attempts.ts';
import { memoryLicenses } from '#test/functions/fakes/licenses.ts';
import { memoryPublicProfiles } from '#test/functions/fakes/public-profiles.ts';
import { describe, expect, it } from 'vitest';
import type { Lesson } from '#contracts/courses.ts';
import { ConflictError, NotFoundError } from '#core/errors.ts';
import { enrollLearner, listCourseEnrollments, NOT_ENROLLABLE, removeEnrollment } from '#core/enrollments/creator-enrollments.ts';
import { completeLesson, learnerCourseDetail, learnerCourses, learnerSummary } from '#core/enrollments/learner-courses.ts';
import type { MailSchool, StoredCourse, User } from '#core/ports.ts';
import { NOW, testClock } from '#test/functions/fakes/clock.ts';
import { courseLesson, courseRecord } from '#test/functions/fakes/courses.ts';
import { creator } from '#test/functions/fakes/deps.ts';
import { memoryCourseReader, memoryEnrollments, memoryMailer } from '#test/functions/fakes/enrollments.ts';
import { memoryUsers } from '#test/functions/fakes/users.ts';
import { onBehalfFakes } from '#test/functions/fakes/on-behalf.ts';

const lesson = (id: string, position: number): Lesson => courseLesson(id, position);

const course = (over: Partial<StoredCourse> = {}): StoredCourse => ({
  ...courseRecord({ id: 'c1', creatorId: 'u1', title: 'Cooking', description: 'Learn to cook.', lessonCount: 4, priceAmount: 0, seatPriceAmount: 0 }),
  lessons: ['l1', 'l2', 'l3', 'l4'].map(lesson),
  ...over,
});

const learner: User = { id: 'learner-1', email: 'ann@example.com', role: 'learner', createdAt: '2026-11-02T00:00:00.000Z' };

const setup = (options: { courses?: StoredCourse[]; users?: User[]; school?: MailSchool } = {}) => {
  const users = memoryUsers(options.users ?? [creator(), creator({ id: 'u2', email: 'other@example.com' }), learner]);
  const deps = {
    courses: memoryCourseReader(options.courses ?? [course()]),
    enrollments: memoryEnrollments(),
    licenses: memoryLicenses(),
    quizzes: memoryQuizAttempts(),
    users,
    profiles: memoryPublicProfiles(), branding: async () => null,
    ...onBehalfFakes(),
    mailer: memoryMailer(),
    clock: testClock(),
    appOrigin: 'https://app.example',
    mailSchool: async (creatorId: string) => (creatorId === 'u1' ? options.school : undefined),
    temporaryPassword: () => 'Temporary2345abcd',
  };
  const enroll = (email: string, creatorId = 'u1', courseId = 'c1') => enrollLearner(deps, { creatorId, courseId, email });
  const complete = (lessonId: string, timeZone?: string) =>
    completeLesson(deps, { learnerId: learner.id, courseId: 'c1', lessonId, ...(timeZone ? { timeZone } : {}) });
  return { deps, enroll, complete };
};

describe('enrolling by email', () => {
  it('enrols an existing learner without an invitation', async () => {
    const { deps, enroll } = setup();
    expect(await enroll('ann@example.com')).toEqual({ learnerId: learner.id, email: 'ann@example.com', invited: false });
    expect(deps.mailer.sent).toEqual([]);
    expect(deps.enrollments.stats('u1').students).toBe(1);
    expect((await learnerCourses(deps, { learnerId: learner.id })).items.map((c) => c.title)).toEqual(['Cooking']);
  });

  it('creates a learner account for a new email and mails the course, the sign-in link and the temporary password', async () => {
    const { deps, enroll } = setup();
    const answer = await enroll('new@example.com');
    expect(answer).toMatchObject({ email: 'new@example.com', invited: true });
    expect((await deps.users.getUser(answer.learnerId))?.role).toBe('learner');
    expect(deps.directory.accounts.get('new@example.com')).toMatchObject({ temporaryPassword: 'Temporary2345abcd', groups: ['learner'] });
    expect(deps.mailer.sent).toHaveLength(1);
    expect(deps.mailer.sent[0]).toMatchObject({ to: 'new@example.com', subject: "You're invited to a course on Course Platform" });
    expect(deps.mailer.sent[0]!.text).toContain('https://app.example/auth/login');
    expect(deps.mailer.sent[0]!.text).toContain('Temporary2345abcd');
    // Not branded: the platform's own email, no sender name.
    expect(deps.mailer.sent[0]).not.toHaveProperty('fromName');
    expect(deps.mailer.sent[0]!.text.startsWith('Course Platform: ')).toBe(true);
  });

  it("invites in the name of a branded creator's school: its name as the sender's and first, its logo on top", async () => {
    const { deps, enroll } = setup({ school: { name: 'Clay & Kiln', logoUrl: 'https://app.example/api/public/schools/u1/logo?v=l1' } });
    await enroll('new@example.com');
    const [mail] = deps.mailer.sent;
    expect(mail).toMatchObject({ to: 'new@example.com', fromName: 'Clay & Kiln', subject: "You're invited to a course on Course Platform" });
    expect(mail!.text.startsWith('Clay & Kiln: you are enrolled in the course "Cooking".')).toBe(true);
    expect(mail!.html).toContain('<img src="https://app.example/api/public/schools/u1/logo?v=l1" alt="Clay &amp; Kiln"');
    expect(mail!.html).toContain('Sent by Course Platform for Clay &amp; Kiln.');
    expect(mail!.html).not.toContain('font-weight:600">Course Platform</p>');
  });

  it('refuses to enrol an enrolled learner again (409) and counts them once', async () => {
    const { deps, enroll } = setup();
    await enroll('ann@example.com');
    await expect(enroll('ann@example.com')).rejects.toBeInstanceOf(ConflictError);
    expect(deps.enrollments.stats('u1').students).toBe(1);
  });

  it('refuses an email that belongs to a creator', async () => {
    const { deps, enroll } = setup();
    await expect(enroll('other@example.com')).rejects.toThrow(new ConflictError(NOT_ENROLLABLE));
    expect(deps.enrollments.stats('u1').students).toBe(0);
  });

  it('answers 404 on another creator’s course and writes nothing', async () => {
    const { deps, enroll } = setup();
    await expect(enroll('new@example.com', 'u2')).rejects.toBeInstanceOf(NotFoundError);
    await expect(listCourseEnrollments(deps, { creatorId: 'u2', courseId: 'c1' })).rejects.toBeInstanceOf(NotFoundError);
    await enroll('ann@example.com');
    await expect(removeEnrollment(deps, { creatorId: 'u2', courseId: 'c1', learnerId: learner.id })).rejects.toBeInstanceOf(NotFoundError);
    expect(await deps.users.getUserIdByEmail('new@example.com')).toBeUndefined();
    expect(deps.mailer.sent).toEqual([]);
    expect((await deps.enrollments.get('c1', learner.id))?.status).toBe('active');
  });
});

describe('removing and re-enrolling', () => {
  it('takes the course away from the learner, keeps their progress, and gives it back on re-enrolment', async () => {
    const { deps, enroll, complete } = setup();
    await enroll('ann@example.com');
    await complete('l1');
    await removeEnrollment(deps, { creatorId: 'u1', courseId: 'c1', learnerId: learner.id });

    expect((await learnerCourses(deps, { learnerId: learner.id })).items).toEqual([]);
    await expect(learnerCourseDetail(deps, { learnerId: learner.id, courseId: 'c1' })).rejects.toBeInstanceOf(NotFoundError);
    expect((await listCourseEnrollments(deps, { creatorId: 'u1', courseId: 'c1' })).items).toEqual([]);
    expect(deps.enrollments.stats('u1').students).toBe(0);

    expect(await enroll('ann@example.com')).toMatchObject({ invited: false });
    const detail = await learnerCourseDetail(deps, { learnerId: learner.id, courseId: 'c1' });
    expect(detail.progress).toBe(25);
    // The creator's public name (none yet here), never their email.
    expect(detail.creatorName).toBe('Course creator');
    expect(detail.lessons.filter((l) => l.completed).map((l) => l.id)).toEqual(['l1']);
    expect(deps.enrollments.stats('u1').students).toBe(1);
  });

  it('answers 404 when removing a learner who is not enrolled', async () => {
    const { deps } = setup();
    await expect(removeEnrollment(deps, { creatorId: 'u1', courseId: 'c1', learnerId: learner.id })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('completing lessons', () => {
  it('raises progress by the share of the course’s lessons and sets lastActivity', async () => {
    const { deps, enroll, complete } = setup();
    await enroll('ann@example.com');
    deps.clock.set('2026-11-21T15:00:00.000Z');
    expect(await complete('l1')).toEqual({ progress: 25, completedAt: null });
    expect(await complete('l2')).toEqual({ progress: 50, completedAt: null });
    const [mine] = (await learnerCourses(deps, { learnerId: learner.id })).items;
    expect(mine).toMatchObject({ progress: 50, lastActivity: '2026-11-21T15:00:00.000Z' });
  });

  it('is idempotent: completing a lesson twice changes nothing', async () => {
    const { deps, enroll, complete } = setup();
    await enroll('ann@example.com');
    await complete('l1');
    const before = await deps.enrollments.get('c1', learner.id);
    deps.clock.advance(86_400_000);
    expect(await complete('l1')).toEqual({ progress: 25, completedAt: null });
    expect(await deps.enrollments.get('c1', learner.id)).toEqual(before);
    expect(deps.enrollments.days(learner.id)).toEqual(['2026-11-21']);
  });

  it('sets completedAt once, when progress reaches 100, and counts the completion for the creator', async () => {
    const { deps, enroll, complete } = setup({ courses: [course({ lessons: [lesson('l1', 0), lesson('l2', 1)] })] });
    await enroll('ann@example.com');
    await complete('l1');
    deps.clock.set('2026-11-22T10:00:00.000Z');
    expect(await complete('l2')).toEqual({ progress: 100, completedAt: '2026-11-22T10:00:00.000Z' });
    deps.clock.set('2026-11-23T10:00:00.000Z');
    expect(await complete('l2')).toEqual({ progress: 100, completedAt: '2026-11-22T10:00:00.000Z' });
    expect(deps.enrollments.stats('u1')).toEqual({ students: 1, completions: 1 });
  });

  it('keeps completedAt when a lesson added later lowers the progress', async () => {
    const { deps, enroll, complete } = setup({ courses: [course({ lessons: [lesson('l1', 0)] })] });
    await enroll('ann@example.com');
    await complete('l1');
    deps.courses.put(course({ lessons: [lesson('l1', 0), lesson('l2', 1)] }));
    expect(await complete('l2')).toEqual({ progress: 100, completedAt: NOW });
  });

  it('reads again and still applies when another completion lands between the read and the write', async () => {
    const { deps, enroll, complete } = setup();
    await enroll('ann@example.com');
    deps.enrollments.before('completeLesson', async (call) => {
      if (call === 1) await completeLesson(deps, { learnerId: learner.id, courseId: 'c1', lessonId: 'l2' });
    });
    expect(await complete('l1')).toEqual({ progress: 50, completedAt: null });
  });

  it('answers 404 for a lesson that is not the course’s, a draft course, or a course the learner is not enrolled in', async () => {
    const { deps, enroll, complete } = setup();
    await expect(complete('l1')).rejects.toBeInstanceOf(NotFoundError);
    await enroll('ann@example.com');
    await expect(complete('nope')).rejects.toBeInstanceOf(NotFoundError);
    deps.courses.put(course({ status: 'draft' }));
    await expect(complete('l1')).rejects.toBeInstanceOf(NotFoundError);
    await expect(learnerCourseDetail(deps, { learnerId: learner.id, courseId: 'c1' })).rejects.toThrow('Course not found.');
    expect(await deps.enrollments.get('c1', learner.id)).toMatchObject({ completedLessonIds: [] });
  });

  it('marks the activity day in the learner’s time zone (UTC by default)', async () => {
    const { deps, enroll, complete } = setup();
    await enroll('ann@example.com');
    deps.clock.set('2026-11-21T23:30:00.000Z');
    await complete('l1', 'Asia/Tokyo');
    await complete('l2');
    expect(deps.enrollments.days(learner.id)).toEqual(['2026-11-21', '2026-11-22']);
  });
});

describe('My Learning', () => {
  it('counts enrolled and completed courses, lists the unfinished ones by last activity, and has no certificates yet', async () => {
    const second = course({ id: 'c2', title: 'Baking', lessons: [lesson('b1', 0)] });
    const { deps, enroll, complete } = setup({ courses: [course(), second] });
    await enroll('ann@example.com');
    await enroll('ann@example.com', 'u1', 'c2');
    deps.clock.advance(60_000);
    await complete('l1');
    await completeLesson(deps, { learnerId: learner.id, courseId: 'c2', lessonId: 'b1' });
    const summary = await learnerSummary(deps, { learnerId: learner.id });
    expect(summary).toMatchObject({ enrolled: 2, completed: 1, certificates: 0 });
    expect(summary.continueLearning.map((c) => c.title)).toEqual(['Cooking']);
  });

  it('lists at most 50 unfinished courses, the most recently active, while the figures count every course', async () => {
    const courses = Array.from({ length: 60 }, (_, i) => course({ id: `c${i}`, title: `Course ${i}` }));
    const { deps, enroll } = setup({ courses });
    for (const [i, c] of courses.entries()) {
      deps.clock.advance(60_000);
      await enroll('ann@example.com', 'u1', c.id);
      if (i === 0) await completeLesson(deps, { learnerId: learner.id, courseId: c.id, lessonId: 'l1' });
    }
    const summary = await learnerSummary(deps, { learnerId: learner.id });
    expect(summary.enrolled).toBe(60);
    expect(summary.continueLearning).toHaveLength(50);
    expect(summary.continueLearning[0]?.title).toBe('Course 59');
  });

  it('counts the streak in the learner’s own time zone', async () => {
    const { deps } = setup();
    deps.enrollments.addDays(learner.id, '2026-11-20', '2026-11-21', '2026-11-22');
    deps.clock.set('2026-11-21T23:30:00.000Z');
    // In Tokyo it is already the 22nd: three days ending today.
    expect((await learnerSummary(deps, { learnerId: learner.id, timeZone: 'Asia/Tokyo' })).studyStreak).toBe(3);
    // In UTC it is the 21st: the 22nd has not happened, the streak runs 20th-21st.
    expect((await learnerSummary(deps, { learnerId: learner.id })).studyStreak).toBe(2);
    // Two days later with nothing since, it is gone.
    deps.clock.set('2026-11-24T12:00:00.000Z');
    expect((await learnerSummary(deps, { learnerId: learner.id, timeZone: 'Asia/Tokyo' })).studyStreak).toBe(0);
  });
});
