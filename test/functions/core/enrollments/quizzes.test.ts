import { describe, expect, it } from 'vitest';
import type { Lesson, QuizDefinition } from '#contracts/courses.ts';
import { quizDefinition } from '#contracts/courses.ts';
import { ConflictError, ValidationError } from '#core/errors.ts';
import { completeLesson, learnerCourseDetail, QUIZ_COMPLETES_ITSELF } from '#core/enrollments/learner-courses.ts';
import { NO_ATTEMPTS_LEFT, QUIZ_PASSED_ALREADY, submitQuizAttempt } from '#core/enrollments/quiz-attempts.ts';
import { arrangementOf, gradeAnswers, learnerQuizView, permutation } from '#core/enrollments/quizzes.ts';
import type { StoredCourse } from '#core/ports.ts';
import { NOW, testClock } from '#test/functions/fakes/clock.ts';
import { courseLesson, courseRecord } from '#test/functions/fakes/courses.ts';
import { memoryCourseReader, memoryEnrollments } from '#test/functions/fakes/enrollments.ts';
import { memoryLicenses } from '#test/functions/fakes/licenses.ts';
import { memoryPublicProfiles } from '#test/functions/fakes/public-profiles.ts';
import { memoryQuizAttempts } from '#test/functions/fakes/quiz-attempts.ts';

/** Two questions: the capital of France (single, option 1), and the primary colours among four (multiple, 0 and 2). */
const QUIZ: QuizDefinition = quizDefinition.parse({
  passPercent: 100,
  maxAttempts: 2,
  questions: [
    { prompt: 'Capital of France?', type: 'single', options: ['Lyon', 'Paris', 'Nice'], correct: [1] },
    { prompt: 'Primary colours?', type: 'multiple', options: ['Red', 'Green', 'Blue', 'Pink'], correct: [0, 2] },
  ],
});

const lesson = (id: string, position: number, quiz: QuizDefinition | null = null): Lesson => courseLesson(id, position, quiz);

const course = (quiz: QuizDefinition = QUIZ): StoredCourse => ({
  ...courseRecord({ id: 'c1', creatorId: 'u1', title: 'Basics', description: '', lessonCount: 2, enrolledCount: 1, priceAmount: 0, seatPriceAmount: 0 }),
  lessons: [lesson('l1', 0), lesson('q1', 1, quiz)],
});

const setup = async (quiz: QuizDefinition = QUIZ) => {
  const deps = {
    courses: memoryCourseReader([course(quiz)]),
    enrollments: memoryEnrollments(),
    licenses: memoryLicenses(),
    quizzes: memoryQuizAttempts(),
    profiles: memoryPublicProfiles(),
    branding: async () => null,
    clock: testClock(),
  };
  await deps.enrollments.enroll({ courseId: 'c1', learnerId: 'ann', creatorId: 'u1', learnerEmail: 'ann@example.com', learnerJoinedAt: NOW, courseTitle: 'Basics', enrolledAt: NOW });
  const attempt = (answers: number[][], learnerId = 'ann') => submitQuizAttempt(deps, { learnerId, courseId: 'c1', lessonId: 'q1', body: { answers } });
  return { deps, attempt };
};

describe('grading', () => {
  const plain = arrangementOf(QUIZ, 'ann', 'q1');

  it('counts a question only when exactly its right options are chosen; the score is the percent right, rounded down', () => {
    expect(gradeAnswers(QUIZ, plain, [[1], [0, 2]])).toEqual({ score: 100, correct: [true, true] });
    expect(gradeAnswers(QUIZ, plain, [[1], [2, 0]])).toEqual({ score: 100, correct: [true, true] });
    expect(gradeAnswers(QUIZ, plain, [[1], [0]])).toEqual({ score: 50, correct: [true, false] });
    expect(gradeAnswers(QUIZ, plain, [[1], [0, 1, 2]])).toEqual({ score: 50, correct: [true, false] });
    expect(gradeAnswers(QUIZ, plain, [[0], [3]])).toEqual({ score: 0, correct: [false, false] });
    const three = quizDefinition.parse({ passPercent: 67, questions: [0, 1, 2].map(() => QUIZ.questions[0]) });
    expect(gradeAnswers(three, arrangementOf(three, 'ann', 'q'), [[1], [1], [0]]).score).toBe(66);
  });

  it('refuses answers that do not fit the quiz (400), before anything is recorded', () => {
    for (const answers of [[[1]], [[1], [0, 2], [1]], [[3], [0]], [[1, 1], [0]], [[0, 1], [0]], [[1], []]]) {
      expect(() => gradeAnswers(QUIZ, plain, answers), JSON.stringify(answers)).toThrow(ValidationError);
    }
  });

  it("shuffles per learner and quiz, the same on every visit, and grades in the learner's order", () => {
    expect(permutation(10, 'seed')).toEqual(permutation(10, 'seed'));
    expect([...permutation(10, 'seed')].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const shuffled = { ...QUIZ, shuffle: true };
    const orders = new Set(['ann', 'bob', 'cy', 'dee', 'eve', 'fay'].map((id) => JSON.stringify(arrangementOf(shuffled, id, 'q1'))));
    expect(orders.size).toBeGreaterThan(1);
    const mine = arrangementOf(shuffled, 'bob', 'q1');
    const view = learnerQuizView(shuffled, mine, undefined);
    // Bob answers right in his own order: the options he sees, mapped back.
    const answers = view.questions.map((q) => (q.type === 'single' ? [q.options.indexOf('Paris')] : ['Red', 'Blue'].map((o) => q.options.indexOf(o))));
    expect(gradeAnswers(shuffled, mine, answers).score).toBe(100);
  });
});

describe('taking a quiz', () => {
  it('never sends the right answers before the review: not in the course, not in a failed attempt with attempts left', async () => {
    const { deps, attempt } = await setup();
    const detail = await learnerCourseDetail(deps, { learnerId: 'ann', courseId: 'c1' });
    const quizLesson = detail.lessons.find((l) => l.id === 'q1')!;
    expect(JSON.stringify(detail)).not.toContain('correct');
    expect(quizLesson.quiz).toMatchObject({ passPercent: 100, maxAttempts: 2, attempts: 0, attemptsLeft: 2, bestScore: null, passed: false, review: null });
    expect(quizLesson.quiz!.questions[1]).toEqual({ prompt: 'Primary colours?', type: 'multiple', options: ['Red', 'Green', 'Blue', 'Pink'] });
    const failed = await attempt([[0], [0, 2]]);
    expect(failed).toEqual({ score: 50, passed: false, attemptsLeft: 1, progress: 0, completedAt: null, review: null });
    const again = (await learnerCourseDetail(deps, { learnerId: 'ann', courseId: 'c1' })).lessons[1]!.quiz!;
    expect(again).toMatchObject({ attempts: 1, attemptsLeft: 1, bestScore: 50, passed: false, review: null });
  });

  it('after the final attempt shows what was wrong, and refuses another (409)', async () => {
    const { deps, attempt } = await setup();
    await attempt([[0], [0, 2]]);
    const last = await attempt([[1], [0]]);
    expect(last).toMatchObject({ score: 50, passed: false, attemptsLeft: 0 });
    expect(last.review).toEqual([
      { correct: true, rightOptions: [1] },
      { correct: false, rightOptions: [0, 2] },
    ]);
    await expect(attempt([[1], [0, 2]])).rejects.toThrow(NO_ATTEMPTS_LEFT);
    expect((await learnerCourseDetail(deps, { learnerId: 'ann', courseId: 'c1' })).lessons[1]!.quiz!.review).toEqual(last.review);
    expect((await deps.enrollments.get('c1', 'ann'))?.completedLessonIds).toEqual([]);
  });

  it('a pass completes the lesson, and the course with its other lessons, once; a second pass is refused', async () => {
    const { deps, attempt } = await setup();
    await expect(completeLesson(deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'q1' })).rejects.toThrow(QUIZ_COMPLETES_ITSELF);
    await completeLesson(deps, { learnerId: 'ann', courseId: 'c1', lessonId: 'l1' });
    const passed = await attempt([[1], [2, 0]]);
    expect(passed).toMatchObject({ score: 100, passed: true, attemptsLeft: 1, progress: 100, completedAt: NOW });
    expect(passed.review).toEqual([
      { correct: true, rightOptions: [1] },
      { correct: true, rightOptions: [0, 2] },
    ]);
    await expect(attempt([[1], [0, 2]])).rejects.toThrow(QUIZ_PASSED_ALREADY);
    const enrollment = await deps.enrollments.get('c1', 'ann');
    expect(enrollment).toMatchObject({ progress: 100, completedAt: NOW, completedLessonIds: ['l1', 'q1'] });
    expect(deps.enrollments.stats('u1')).toMatchObject({ completions: 1 });
  });

  it('a retry after a pass whose completion failed completes the lesson, and is told it passed', async () => {
    const { deps, attempt } = await setup();
    deps.enrollments.before('completeLesson', (call) => {
      if (call === 1) throw new Error('DynamoDB stalled');
    });
    await expect(attempt([[1], [0, 2]])).rejects.toThrow('DynamoDB stalled');
    await expect(attempt([[1], [0, 2]])).rejects.toThrow(ConflictError);
    expect((await deps.enrollments.get('c1', 'ann'))?.completedLessonIds).toEqual(['q1']);
  });

  it('concurrent submissions never pass the attempt limit: each recorded attempt counted once', async () => {
    const { deps, attempt } = await setup({ ...QUIZ, maxAttempts: 3 });
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => attempt([[0], [1]])));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toBeInstanceOf(ConflictError);
    expect((await deps.quizzes.get('c1', 'ann', 'q1'))?.attempts).toBe(3);
  });
});
