import type { QuizAttemptBody, QuizAttemptResult } from '#contracts/courses.ts';
import { lessonDone, LESSON_NOT_FOUND, reachableOutline, type LearnerDeps } from '#core/enrollments/learner-courses.ts';
import { mustBeOpen } from '#core/enrollments/drip.ts';
import { arrangementOf, attemptsLeftOf, gradeAnswers, reviewOf } from '#core/enrollments/quizzes.ts';
import { ConflictError, NotFoundError } from '#core/errors.ts';
import type { QuizAttemptRepository } from '#core/ports.ts';
import { reportMoves } from '#core/reports/course-report.ts';

export const NOT_A_QUIZ = 'This lesson is not a quiz.';
export const QUIZ_PASSED_ALREADY = 'You passed this quiz already.';
export const NO_ATTEMPTS_LEFT = 'You have no attempts left on this quiz.';
export const ATTEMPT_RACE = 'Another attempt at this quiz was being marked at the same moment. Submit your answers again.';

/** Concurrent submissions of one learner: each lost race reads again, this many times (each win takes one attempt). */
const RECORD_TRIES = 10;

export interface QuizAttemptDeps extends LearnerDeps {
  quizzes: QuizAttemptRepository;
}

/**
 * POST /api/learner/courses/{courseId}/lessons/{lessonId}/attempts: the answers graded on the server against the
 * quiz as stored (the right answers never leave it; read with the course's outline, that lesson alone, eventually
 * consistent). The attempt is recorded only if none was recorded since it was
 * read (so concurrent submissions count one by one and never pass the limit); a pass completes the lesson (and the
 * course, when it was the last), exactly once. After a pass or the last attempt the answer carries the review. A
 * retry after a pass that was recorded but whose completion failed finishes the completion (and is told it passed).
 */
export const submitQuizAttempt = async (
  deps: QuizAttemptDeps,
  input: { learnerId: string; courseId: string; lessonId: string; body: QuizAttemptBody; timeZone?: string },
): Promise<QuizAttemptResult> => {
  const done = { learnerId: input.learnerId, courseId: input.courseId, lessonId: input.lessonId, timeZone: input.timeZone };
  for (let tries = 1; tries <= RECORD_TRIES; tries++) {
    // The outline (the course's rules, its lessons) beside the one lesson with its quiz: no other lesson is read.
    const [{ course, enrollment }, lesson] = await Promise.all([
      reachableOutline(deps, input.learnerId, input.courseId),
      deps.courses.getLesson(input.courseId, input.lessonId),
    ]);
    const listed = course.lessons.find((l) => l.id === lesson?.id);
    if (!lesson || !listed) throw new NotFoundError(LESSON_NOT_FOUND);
    mustBeOpen(listed, enrollment.enrolledAt, deps.clock.now());
    if (lesson.kind !== 'quiz' || !lesson.quiz) throw new ConflictError(NOT_A_QUIZ);
    const quiz = lesson.quiz;
    const state = await deps.quizzes.get(course.id, input.learnerId, lesson.id);
    if (state?.passed) {
      await lessonDone(deps, done, { quizPassed: true });
      throw new ConflictError(QUIZ_PASSED_ALREADY);
    }
    const used = state?.attempts ?? 0;
    if (attemptsLeftOf(quiz, used) === 0) throw new ConflictError(NO_ATTEMPTS_LEFT);
    const arrangement = arrangementOf(quiz, input.learnerId, lesson.id);
    const { score, correct } = gradeAnswers(quiz, arrangement, input.body.answers);
    const passed = score >= quiz.passPercent;
    const attempts = used + 1;
    const now = deps.clock.now().toISOString();
    // The course report counts the attempt (and each question's outcome, by the stored question it shows) with it.
    const report = reportMoves(
      enrollment,
      { kind: 'attempted', lessonId: lesson.id, quiz, passed, correct: arrangement.questions.map((shown, i) => ({ from: shown.from, correct: correct[i] ?? false })) },
      now,
    );
    const recorded = await deps.quizzes.record(
      {
        courseId: course.id,
        learnerId: input.learnerId,
        lessonId: lesson.id,
        title: lesson.title,
        attempts,
        bestScore: Math.max(state?.bestScore ?? 0, score),
        passed,
        lastCorrect: correct,
        updatedAt: now,
      },
      used,
      report,
    );
    if (recorded === 'changed') continue;
    const { progress, completedAt } = passed
      ? await lessonDone(deps, done, { quizPassed: true })
      : await deps.enrollments.get(course.id, input.learnerId).then((e) => ({ progress: e?.progress ?? 0, completedAt: e?.completedAt ?? null }));
    const attemptsLeft = attemptsLeftOf(quiz, attempts);
    return { score, passed, attemptsLeft, progress, completedAt, review: passed || attemptsLeft === 0 ? reviewOf(quiz, arrangement, correct) : null };
  }
  throw new ConflictError(ATTEMPT_RACE);
};
