import { describe, expect, it } from 'vitest';
import type { Lesson, QuizDefinition } from '#contracts/courses.ts';
import { quizDefinition } from '#contracts/courses.ts';
import { completeLesson, learnerLesson } from '#core/enrollments/learner-courses.ts';
import { submitQuizAttempt } from '#core/enrollments/quiz-attempts.ts';
import { arrangementOf } from '#core/enrollments/quizzes.ts';
import { NotFoundError, PlanRequiredError } from '#core/errors.ts';
import type { StoredCourse, StoredSubscription } from '#core/ports.ts';
import { courseReport, questionKey } from '#core/reports/course-report.ts';
import { storedSubscription } from '#test/functions/fakes/billing.ts';
import { NOW, testClock } from '#test/functions/fakes/clock.ts';
import { courseLesson, courseRecord } from '#test/functions/fakes/courses.ts';
import { memoryCourseReader, memoryEnrollments } from '#test/functions/fakes/enrollments.ts';
import { memoryLicenses } from '#test/functions/fakes/licenses.ts';
import { memoryQuizAttempts } from '#test/functions/fakes/quiz-attempts.ts';

/** Two single-answer questions, both needed to pass. */
const QUIZ: QuizDefinition = quizDefinition.parse({
  passPercent: 100,
  questions: [
    { prompt: 'Capital of France?', type: 'single', options: ['Lyon', 'Paris'], correct: [1] },
    { prompt: 'Capital of Italy?', type: 'single', options: ['Rome', 'Milan'], correct: [0] },
  ],
});

const lesson = (id: string, position: number, quiz: QuizDefinition | null = null): Lesson => courseLesson(id, position, quiz);

const COURSE: StoredCourse = {
  ...courseRecord({ id: 'c1', creatorId: 'pro', title: 'Basics', description: '', lessonCount: 3, enrolledCount: 4, priceAmount: 0, seatPriceAmount: 0 }),
  lessons: [lesson('l1', 0), lesson('l2', 1), lesson('q1', 2, QUIZ)],
};

const subscription = (userId: string, tier: 'starter' | 'pro'): StoredSubscription =>
  storedSubscription({ userId, subscriptionId: `sub_${userId}`, customerId: `cus_${userId}`, status: 'active', tier, trialEnd: null });

const setup = async () => {
  const enrollments = memoryEnrollments();
  const courses = memoryCourseReader([COURSE]);
  const subs = new Map([
    ['pro', subscription('pro', 'pro')],
    ['starter', subscription('starter', 'starter')],
  ]);
  const deps = {
    courses,
    enrollments,
    licenses: memoryLicenses(),
    quizzes: memoryQuizAttempts(enrollments),
    clock: testClock(),
    reports: enrollments.reports,
    billing: { getSubscription: async (userId: string) => subs.get(userId) },
  };
  for (const learnerId of ['ann', 'bob', 'cyd', 'dee']) {
    await enrollments.enroll({ courseId: 'c1', learnerId, creatorId: 'pro', learnerEmail: `${learnerId}@example.com`, learnerJoinedAt: NOW, courseTitle: 'Basics', enrolledAt: NOW });
  }
  const open = (learnerId: string, lessonId: string) => learnerLesson(deps, { learnerId, courseId: 'c1', lessonId });
  const complete = (learnerId: string, lessonId: string) => completeLesson(deps, { learnerId, courseId: 'c1', lessonId });
  /** Answers in the order the learner is shown: right (or wrong) for each stored question. */
  const attempt = (learnerId: string, right: [boolean, boolean]) => {
    const shown = arrangementOf(QUIZ, learnerId, 'q1');
    const answers = shown.questions.map((q) => {
      const wanted = QUIZ.questions[q.from]!.correct[0]!;
      const option = right[q.from] ? wanted : 1 - wanted;
      return [q.options.indexOf(option)];
    });
    return submitQuizAttempt(deps, { learnerId, courseId: 'c1', lessonId: 'q1', body: { answers } });
  };
  const report = (creatorId = 'pro') => courseReport(deps, { creatorId, courseId: 'c1' });
  return { deps, open, complete, attempt, report };
};

describe('the course report', () => {
  it('counts every learner once per figure: the funnel, the course, the quiz and each question', async () => {
    const { open, complete, attempt, report } = await setup();
    // ann: opens and completes everything, passes the quiz at the second attempt.
    await open('ann', 'l1');
    await open('ann', 'l1');
    await complete('ann', 'l1');
    await complete('ann', 'l1');
    await complete('ann', 'l2');
    await open('ann', 'q1');
    await attempt('ann', [true, false]);
    // bob: completes l1 without opening it first (the completion reaches it), opens l2 and stops.
    await complete('bob', 'l1');
    await open('bob', 'l2');
    // cyd: only opens l1. dee: nothing.
    await open('cyd', 'l1');

    const before = await report();
    expect(before.quizzes[0]!.attempts).toBe(1);

    await attempt('ann', [true, true]);
    const figures = await report();
    expect(figures).toMatchObject({ enrolled: 4, started: 3, completed: 1, completionRate: 0.25 });
    expect(figures.lessons.map(({ lessonId, reached, completed }) => ({ lessonId, reached, completed }))).toEqual([
      { lessonId: 'l1', reached: 3, completed: 2 },
      { lessonId: 'l2', reached: 2, completed: 1 },
      { lessonId: 'q1', reached: 1, completed: 1 },
    ]);
    expect(figures.quizzes).toEqual([
      {
        lessonId: 'q1',
        title: 'Check yourself',
        attempts: 2,
        passRate: 0.5,
        questions: [
          { prompt: 'Capital of France?', answers: 2, correctRate: 1 },
          { prompt: 'Capital of Italy?', answers: 2, correctRate: 0.5 },
        ],
      },
    ]);
  });

  it('rates a quiz over its attempts and each question over its answers', async () => {
    const { attempt, report } = await setup();
    await attempt('bob', [false, false]);
    await attempt('bob', [true, true]);
    await attempt('cyd', [false, true]);
    const quiz = (await report()).quizzes[0]!;
    expect(quiz.attempts).toBe(3);
    expect(quiz.passRate).toBe(0.333);
    expect(quiz.questions).toEqual([
      { prompt: 'Capital of France?', answers: 3, correctRate: 0.333 },
      { prompt: 'Capital of Italy?', answers: 3, correctRate: 0.667 },
    ]);
    // A quiz attempt is an activity and reaches its lesson.
    const figures = await report();
    expect(figures.started).toBe(2);
    expect(figures.lessons[2]).toMatchObject({ lessonId: 'q1', reached: 2, completed: 1 });
  });

  it('is all zeros before any learner did anything', async () => {
    const { report } = await setup();
    const figures = await report();
    expect(figures).toMatchObject({ enrolled: 4, started: 0, completed: 0, completionRate: 0 });
    expect(figures.lessons.every((l) => l.reached === 0 && l.completed === 0)).toBe(true);
    expect(figures.quizzes[0]!.questions.every((q) => q.correctRate === 0 && q.answers === 0)).toBe(true);
  });

  it('keys a question by its prompt, so its figures follow it when the quiz is reordered', () => {
    expect(questionKey(' Capital of France? ')).toBe(questionKey('Capital of France?'));
    expect(questionKey('Capital of France?')).not.toBe(questionKey('Capital of Italy?'));
  });

  it("refuses a Starter creator with PLAN_REQUIRED (Pro) and another creator's course with 404", async () => {
    const { deps } = await setup();
    await expect(courseReport(deps, { creatorId: 'starter', courseId: 'c1' })).rejects.toBeInstanceOf(NotFoundError);
    deps.courses.put({ ...COURSE, id: 'c2', creatorId: 'starter' });
    const refused = await courseReport(deps, { creatorId: 'starter', courseId: 'c2' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PlanRequiredError);
    expect((refused as PlanRequiredError).details).toEqual({ requiredPlan: 'pro' });
    await expect(courseReport(deps, { creatorId: 'nobody', courseId: 'c1' })).rejects.toBeInstanceOf(NotFoundError);
  });
});
