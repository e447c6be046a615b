import { createHash } from 'node:crypto';
import type { LearnerQuiz, QuizDefinition, QuizReview } from '#contracts/courses.ts';
import { ValidationError } from '#core/errors.ts';
import type { StoredQuizAttempts } from '#core/ports.ts';

/**
 * Quizzes as a learner takes them (issue 15), pure: the order a learner sees (shuffled per learner and quiz when the
 * quiz shuffles, the same on every visit, so the server can grade without keeping it), grading (a question counts
 * when exactly its right options are chosen; the score is the percent of questions right), and what the learner is
 * shown: never the right answers, until they passed or have no attempt left (the review).
 */

/** Where each question shown comes from, and each of its options shown: indexes into the creator's quiz. */
export interface Arrangement {
  questions: { from: number; options: number[] }[];
}

/** A permutation of 0..n-1 drawn from `seed` (Fisher-Yates on SHA-256 bytes): the same seed, the same order. */
export const permutation = (n: number, seed: string): number[] => {
  const order = Array.from({ length: n }, (_, i) => i);
  let pool = createHash('sha256').update(seed).digest();
  let used = 0;
  const next = (): number => {
    if (used + 4 > pool.length) {
      pool = createHash('sha256').update(pool).digest();
      used = 0;
    }
    const value = pool.readUInt32BE(used);
    used += 4;
    return value;
  };
  for (let i = n - 1; i > 0; i--) {
    const j = next() % (i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
};

/** The order this learner sees the quiz in: the creator's, or (shuffle) one of the learner's own. */
export const arrangementOf = (quiz: QuizDefinition, learnerId: string, lessonId: string): Arrangement => {
  const seed = `${learnerId}:${lessonId}`;
  const questions = quiz.shuffle ? permutation(quiz.questions.length, `${seed}:questions`) : quiz.questions.map((_, i) => i);
  return {
    questions: questions.map((from) => {
      const count = quiz.questions[from]!.options.length;
      return { from, options: quiz.shuffle ? permutation(count, `${seed}:${from}`) : Array.from({ length: count }, (_, i) => i) };
    }),
  };
};

const badAnswers = (message: string, index: number) => new ValidationError(message, [{ path: ['answers', index], message }]);

/**
 * The answers marked, question by question in the order shown: 400 for answers that do not fit the quiz (a question
 * missed or added, an option that does not exist, one chosen twice, a single-choice question with more or less than
 * one). `correct` per question shown; `score` whole percent, rounded down (a pass mark is never reached by rounding).
 */
export const gradeAnswers = (quiz: QuizDefinition, arrangement: Arrangement, answers: number[][]): { score: number; correct: boolean[] } => {
  if (answers.length !== arrangement.questions.length) {
    throw new ValidationError(`Answer each of the ${arrangement.questions.length} questions: ${answers.length} answers were sent.`, [{ path: ['answers'], message: 'One answer per question.' }]);
  }
  const correct = arrangement.questions.map((shown, i) => {
    const question = quiz.questions[shown.from]!;
    const chosen = answers[i]!;
    if (chosen.some((option) => option >= shown.options.length)) throw badAnswers(`Question ${i + 1} has ${shown.options.length} options.`, i);
    if (new Set(chosen).size !== chosen.length) throw badAnswers(`Question ${i + 1}: choose each option once.`, i);
    if (chosen.length === 0) throw badAnswers(`Question ${i + 1} has no answer.`, i);
    if (question.type === 'single' && chosen.length !== 1) throw badAnswers(`Question ${i + 1} takes one answer.`, i);
    const picked = new Set(chosen.map((option) => shown.options[option]!));
    return picked.size === question.correct.length && question.correct.every((option) => picked.has(option));
  });
  return { score: Math.floor((correct.filter(Boolean).length / correct.length) * 100), correct };
};

/** Per question shown: whether the learner's last attempt had it right, and its right options in the order shown. */
export const reviewOf = (quiz: QuizDefinition, arrangement: Arrangement, correct: boolean[]): QuizReview =>
  arrangement.questions.map((shown, i) => {
    const right = new Set(quiz.questions[shown.from]!.correct);
    return { correct: correct[i] ?? false, rightOptions: shown.options.flatMap((from, index) => (right.has(from) ? [index] : [])) };
  });

export const attemptsLeftOf = (quiz: QuizDefinition, attempts: number): number | null => (quiz.maxAttempts === null ? null : Math.max(0, quiz.maxAttempts - attempts));

/** Whether the learner may see the right answers: they passed, or have no attempt left. */
export const reviewDue = (quiz: QuizDefinition, state: Pick<StoredQuizAttempts, 'passed' | 'attempts'>): boolean => state.passed || attemptsLeftOf(quiz, state.attempts) === 0;

/** The quiz as the learner sees it: questions and options in their order, their attempts, and the review once due. */
export const learnerQuizView = (quiz: QuizDefinition, arrangement: Arrangement, state: StoredQuizAttempts | undefined): LearnerQuiz => ({
  passPercent: quiz.passPercent,
  maxAttempts: quiz.maxAttempts,
  questions: arrangement.questions.map((shown) => {
    const question = quiz.questions[shown.from]!;
    return { prompt: question.prompt, type: question.type, options: shown.options.map((from) => question.options[from]!) };
  }),
  attempts: state?.attempts ?? 0,
  attemptsLeft: attemptsLeftOf(quiz, state?.attempts ?? 0),
  bestScore: state?.bestScore ?? null,
  passed: state?.passed ?? false,
  review: state && reviewDue(quiz, state) && state.lastCorrect ? reviewOf(quiz, arrangement, state.lastCorrect) : null,
});
