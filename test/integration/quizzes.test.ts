import { beforeAll, describe, expect, it } from 'vitest';
import { accountWithRole, api } from './support.ts';

/**
 * Quiz lessons end to end (issue 15): a creator builds a quiz, a learner takes it through the gateway; grading on the
 * server (the right answers in no learner answer), the attempt limit under concurrent submissions, a pass completing
 * the lesson and the course once, and the creator's CRM showing the scores.
 */
type Account = Awaited<ReturnType<typeof accountWithRole>>;

const quiz = {
  passPercent: 100,
  maxAttempts: 3,
  questions: [
    { prompt: 'Which knife for bread?', type: 'single', options: ['Paring', 'Serrated', 'Cleaver'], correct: [1] },
    { prompt: 'Which are safe habits?', type: 'multiple', options: ['Curl your fingers', 'Catch a falling knife', 'Cut away from you'], correct: [0, 2] },
  ],
};
const RIGHT = [[1], [0, 2]];
const WRONG = [[0], [0]];

let creator: Account;
let courseId: string;
let textLessonId: string;
let quizLessonId: string;

/** A learner enrolled in the course, signed in. */
const enrolledLearner = async (tag: string): Promise<Account> => {
  const learner = await accountWithRole('learner', tag);
  expect((await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: learner.email } })).status).toBe(201);
  return learner;
};

const attempt = (learner: Account, answers: number[][]) => api('POST', `/api/learner/courses/${courseId}/lessons/${quizLessonId}/attempts`, { token: learner.token, body: { answers } });

beforeAll(async () => {
  creator = await accountWithRole('creator', 'quiz-creator');
  courseId = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Knife safety' } })).body.id as string;
  textLessonId = (await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Holding a knife', kind: 'text', body: '<p>Grip.</p>' } })).body.id as string;
  const made = await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Safety check', kind: 'quiz', quiz } });
  expect(made.status).toBe(201);
  expect(made.body.quiz.questions[1].correct).toEqual([0, 2]);
  quizLessonId = made.body.id as string;
  await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published' } });
});

describe('quizzes', () => {
  it('refuses a quiz lesson that does not hold together (400), and a quiz on a text lesson', async () => {
    const bad = [
      { title: 'Q', kind: 'quiz' },
      { title: 'Q', kind: 'quiz', quiz: { ...quiz, questions: [{ ...quiz.questions[0], correct: [] }] } },
      { title: 'Q', kind: 'quiz', quiz: { ...quiz, questions: [{ ...quiz.questions[0], correct: [0, 1] }] } },
      { title: 'Q', kind: 'quiz', quiz: { ...quiz, questions: [{ ...quiz.questions[0], options: ['One'] , correct: [0] }] } },
      { title: 'Q', kind: 'text', body: '<p>x</p>', quiz },
    ];
    for (const body of bad) expect((await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body })).status, JSON.stringify(body)).toBe(400);
  });

  it('grades on the server, never shows a learner the right answers before the review, and a pass completes the course once', async () => {
    const learner = await enrolledLearner('quiz-taker');
    const course = await api('GET', `/api/learner/courses/${courseId}`, { token: learner.token });
    expect(course.status).toBe(200);
    expect(JSON.stringify(course.body)).not.toContain('"correct"');
    expect(course.body.lessons[1].quiz).toMatchObject({ passPercent: 100, maxAttempts: 3, attempts: 0, attemptsLeft: 3, passed: false, review: null });

    const failed = await attempt(learner, WRONG);
    expect(failed.status).toBe(200);
    expect(failed.body).toEqual({ score: 0, passed: false, attemptsLeft: 2, progress: 0, completedAt: null, review: null });
    expect(JSON.stringify(failed.body)).not.toContain('rightOptions');
    expect((await api('POST', `/api/learner/courses/${courseId}/lessons/${quizLessonId}/complete`, { token: learner.token, body: {} })).status).toBe(409);
    expect((await attempt(learner, [[1]])).status).toBe(400);
    expect((await attempt(learner, [[7], [0]])).status).toBe(400);

    await api('POST', `/api/learner/courses/${courseId}/lessons/${textLessonId}/complete`, { token: learner.token, body: {} });
    const passed = await attempt(learner, RIGHT);
    expect(passed.body).toMatchObject({ score: 100, passed: true, attemptsLeft: 1, progress: 100 });
    expect(passed.body.completedAt).not.toBeNull();
    expect(passed.body.review).toEqual([
      { correct: true, rightOptions: [1] },
      { correct: true, rightOptions: [0, 2] },
    ]);
    const again = await attempt(learner, RIGHT);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('You passed this quiz already.');
    const summary = (await api('GET', '/api/learner/summary', { token: learner.token })).body;
    expect(summary.completed).toBe(1);

    // The creator's CRM shows the quiz's score.
    const details = await api('GET', `/api/crm/learners/${learner.id}`, { token: creator.token });
    expect(details.body.enrollments[0].quizzes).toEqual([{ lessonId: quizLessonId, title: 'Safety check', attempts: 2, bestScore: 100, passed: true }]);
  });

  it('10 concurrent submissions on a 3-attempt quiz: exactly 3 marked, the rest 409, and the review after the last', async () => {
    const learner = await enrolledLearner('quiz-racer');
    const results = await Promise.all(Array.from({ length: 10 }, () => attempt(learner, WRONG)));
    const marked = results.filter((r) => r.status === 200);
    expect(marked).toHaveLength(3);
    for (const r of results.filter((x) => x.status !== 200)) expect(r.status).toBe(409);
    expect(marked.map((r) => r.body.attemptsLeft as number).sort()).toEqual([0, 1, 2]);
    expect(marked.find((r) => r.body.attemptsLeft === 0)!.body.review).toEqual([
      { correct: false, rightOptions: [1] },
      { correct: false, rightOptions: [0, 2] },
    ]);
    const quizNow = (await api('GET', `/api/learner/courses/${courseId}`, { token: learner.token })).body.lessons[1].quiz;
    expect(quizNow).toMatchObject({ attempts: 3, attemptsLeft: 0, passed: false, bestScore: 0 });
    expect((await attempt(learner, RIGHT)).body.error.message).toBe('You have no attempts left on this quiz.');
  });

  it('keeps quiz answers away from other learners and other creators', async () => {
    const outsider = await accountWithRole('learner', 'quiz-outsider');
    expect((await attempt(outsider, RIGHT)).status).toBe(404);
    const otherCreator = await accountWithRole('creator', 'quiz-other');
    expect((await api('GET', `/api/courses/${courseId}`, { token: otherCreator.token })).status).toBe(404);
  });
});
