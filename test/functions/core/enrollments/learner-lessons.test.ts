import { describe, expect, it } from 'vitest';
import { type Lesson, quizDefinition } from '#contracts/courses.ts';
import type { CourseFile } from '#contracts/files.ts';
import { ForbiddenError, NotFoundError } from '#core/errors.ts';
import { completeLesson, learnerCourseDetail, learnerCourseOutline, learnerLesson } from '#core/enrollments/learner-courses.ts';
import { submitQuizAttempt } from '#core/enrollments/quiz-attempts.ts';
import type { StoredCourse } from '#core/ports.ts';
import { NOW, testClock } from '#test/functions/fakes/clock.ts';
import { courseLesson, courseRecord } from '#test/functions/fakes/courses.ts';
import { memoryCourseReader, memoryEnrollments } from '#test/functions/fakes/enrollments.ts';
import { memoryLicenses } from '#test/functions/fakes/licenses.ts';
import { memoryPublicProfiles } from '#test/functions/fakes/public-profiles.ts';
import { memoryQuizAttempts } from '#test/functions/fakes/quiz-attempts.ts';

/** The learner's reads of a course one lesson at a time (issue 28 point 3): the outline, then a lesson. */

const QUIZ = quizDefinition.parse({
  passPercent: 100,
  maxAttempts: 2,
  questions: [{ prompt: 'Capital of France?', type: 'single', options: ['Lyon', 'Paris'], correct: [1] }],
});

const file = (id: string, status: CourseFile['status']): CourseFile => ({
  id,
  lessonId: 'l2',
  kind: 'attachment',
  name: `${id}.pdf`,
  contentType: 'application/pdf',
  size: 100,
  status,
  createdAt: NOW,
});

const lesson = (id: string, position: number, over: Partial<Lesson> = {}): Lesson => courseLesson(id, position, null, { body: `<p>Body of ${id}</p>`, ...over });

const course = (over: Partial<StoredCourse> = {}): StoredCourse => ({
  ...courseRecord({ id: 'c1', creatorId: 'u1', title: 'Basics', description: 'The basics.', lessonCount: 3, enrolledCount: 1, priceAmount: 0, seatPriceAmount: 0 }),
  lessons: [
    lesson('l1', 0),
    lesson('l2', 1, { kind: 'video', body: null, videoUrl: 'https://vimeo.com/1', files: [file('ready', 'ready'), file('half', 'uploading')] }),
    lesson('q1', 2, { kind: 'quiz', body: null, quiz: QUIZ }),
  ],
  ...over,
});

const setup = async (options: { licenseId?: string } = {}) => {
  const reader = memoryCourseReader([course()]);
  const reads: string[] = [];
  const courses = {
    ...reader,
    getCourse: async (id: string) => (reads.push('getCourse'), reader.getCourse(id)),
    getLessons: async (id: string) => (reads.push('getLessons'), reader.getLessons(id)),
    getLesson: async (id: string, lessonId: string) => (reads.push(`getLesson ${lessonId}`), reader.getLesson(id, lessonId)),
    getOutline: async (id: string) => (reads.push('getOutline'), reader.getOutline(id)),
  };
  const deps = { courses, enrollments: memoryEnrollments(), licenses: memoryLicenses(), quizzes: memoryQuizAttempts(), profiles: memoryPublicProfiles(), branding: async () => null, clock: testClock() };
  await deps.enrollments.enroll({
    courseId: 'c1',
    learnerId: 'ann',
    creatorId: 'u1',
    learnerEmail: 'ann@example.com',
    learnerJoinedAt: NOW,
    courseTitle: 'Basics',
    enrolledAt: NOW,
    ...(options.licenseId ? { licenseId: options.licenseId } : {}),
  });
  const open = (lessonId: string, learnerId = 'ann') => learnerLesson(deps, { learnerId, courseId: 'c1', lessonId });
  return { deps, reader, reads, open };
};

describe("the course's outline", () => {
  it('lists the lessons in order with their ticks and the progress, and no lesson body, video or quiz', async () => {
    const { deps, reads } = await setup();
    await completeLesson(deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'l1' });
    reads.length = 0;
    const outline = await learnerCourseOutline(deps, { learnerId: 'ann', courseId: 'c1' });
    expect(outline).toEqual({
      courseId: 'c1',
      title: 'Basics',
      description: 'The basics.',
      creatorName: 'Course creator',
      progress: 33,
      lastActivity: NOW,
      completedAt: null,
      branding: null,
      lessons: [
        { id: 'l1', title: 'Lesson l1', kind: 'text', position: 0, completed: true, locked: false, availableAt: null },
        { id: 'l2', title: 'Lesson l2', kind: 'video', position: 1, completed: false, locked: false, availableAt: null },
        { id: 'q1', title: 'Lesson q1', kind: 'quiz', position: 2, completed: false, locked: false, availableAt: null },
      ],
    });
    expect(JSON.stringify(outline)).not.toMatch(/Body of|vimeo|Capital/);
    expect(reads).toEqual(['getOutline']);
  });

  it('is 404 for a learner not enrolled, a removed enrolment and a draft', async () => {
    const { deps, reader } = await setup();
    await expect(learnerCourseOutline(deps, { learnerId: 'eve', courseId: 'c1' })).rejects.toThrow('Course not found.');
    reader.put(course({ status: 'draft' }));
    await expect(learnerCourseOutline(deps, { learnerId: 'ann', courseId: 'c1' })).rejects.toThrow('Course not found.');
    reader.put(course());
    await deps.enrollments.remove('c1', 'ann');
    await expect(learnerCourseOutline(deps, { learnerId: 'ann', courseId: 'c1' })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('one lesson', () => {
  it('gives a text lesson its body and its place in the course, reading that lesson alone', async () => {
    const { deps, reads, open } = await setup();
    await completeLesson(deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'l1' });
    reads.length = 0;
    expect(await open('l1')).toEqual({ id: 'l1', title: 'Lesson l1', kind: 'text', body: '<p>Body of l1</p>', videoUrl: null, position: 0, files: [], completed: true, quiz: null, assignment: null, locked: false, availableAt: null });
    expect(reads.sort()).toEqual(['getLesson l1', 'getOutline']);
  });

  it("gives a video lesson its video and only its ready files", async () => {
    const { open } = await setup();
    const video = await open('l2');
    expect(video).toMatchObject({ kind: 'video', videoUrl: 'https://vimeo.com/1', position: 1, completed: false });
    expect(video.files.map((f) => f.id)).toEqual(['ready']);
  });

  it('gives a quiz its prompts and the learner’s attempts, never its right answers', async () => {
    const { deps, open } = await setup();
    const before = await open('q1');
    expect(JSON.stringify(before)).not.toContain('correct');
    expect(before.quiz).toEqual({
      passPercent: 100,
      maxAttempts: 2,
      questions: [{ prompt: 'Capital of France?', type: 'single', options: ['Lyon', 'Paris'] }],
      attempts: 0,
      attemptsLeft: 2,
      bestScore: null,
      passed: false,
      review: null,
    });
    await submitQuizAttempt(deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'q1', body: { answers: [[0]] } });
    expect((await open('q1')).quiz).toMatchObject({ attempts: 1, attemptsLeft: 1, bestScore: 0, passed: false, review: null });
  });

  it('answers the lesson as the whole course answers it', async () => {
    const { deps, open } = await setup();
    const whole = await learnerCourseDetail(deps, { learnerId: 'ann', courseId: 'c1' });
    for (const each of whole.lessons) expect(await open(each.id)).toEqual(each);
  });

  it('is 404 "Lesson not found." for a lesson the outline does not list, and "Course not found." before that', async () => {
    const { deps, reader, open } = await setup();
    await expect(open('nope')).rejects.toThrow('Lesson not found.');
    await expect(open('l1', 'eve')).rejects.toThrow('Course not found.');
    reader.put(course({ status: 'draft' }));
    await expect(open('l1')).rejects.toThrow('Course not found.');
    reader.put(course());
    await deps.enrollments.remove('c1', 'ann');
    await expect(open('l1')).rejects.toThrow('Course not found.');
  });

  it("is 403 when the team licence the enrolment came with has ended", async () => {
    const { open } = await setup({ licenseId: 'lic_gone' });
    await expect(open('l1')).rejects.toBeInstanceOf(ForbiddenError);
  });
});

describe('the whole course', () => {
  it('reads the outline first: a learner who may not read the course costs no lesson read', async () => {
    const { deps, reads } = await setup();
    await expect(learnerCourseDetail(deps, { learnerId: 'eve', courseId: 'c1' })).rejects.toThrow('Course not found.');
    expect(reads).toEqual(['getOutline']);
    reads.length = 0;
    const whole = await learnerCourseDetail(deps, { learnerId: 'ann', courseId: 'c1' });
    expect(reads).toEqual(['getOutline', 'getLessons']);
    expect(whole.lessons.map((l) => [l.id, l.body])).toEqual([
      ['l1', '<p>Body of l1</p>'],
      ['l2', null],
      ['q1', null],
    ]);
  });
});
