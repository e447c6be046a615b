import type { Enrollment, ReportMoves } from '#core/ports.ts';
import type { CourseFigures, CourseReportRepository } from '#core/reports/ports.ts';

/**
 * The course report's figures in memory, with functions/data/course-reports.ts's rules: a write's moves apply only
 * while the enrolment's marks it sets are unset (the transaction's conditions), all or nothing.
 */
export const memoryCourseReports = () => {
  const figures = new Map<string, CourseFigures>();
  const of = (courseId: string): CourseFigures => {
    let found = figures.get(courseId);
    if (!found) figures.set(courseId, (found = { started: 0, completed: 0, lessons: {}, quizzes: {} }));
    return found;
  };
  /** Whether the enrolment's marks allow `moves` (its conditions hold). */
  const allows = (enrollment: Pick<Enrollment, 'startedAt' | 'reachedLessonIds'>, moves: ReportMoves | undefined): boolean =>
    !moves || ((!moves.startedAt || !enrollment.startedAt) && (!moves.reachedLessonId || !(enrollment.reachedLessonIds ?? []).includes(moves.reachedLessonId)));
  /** The enrolment with the marks `moves` sets. */
  const marked = <E extends Pick<Enrollment, 'startedAt' | 'reachedLessonIds'>>(enrollment: E, moves: ReportMoves | undefined): E => ({
    ...enrollment,
    ...(moves?.startedAt ? { startedAt: moves.startedAt } : {}),
    ...(moves?.reachedLessonId ? { reachedLessonIds: [...(enrollment.reachedLessonIds ?? []), moves.reachedLessonId] } : {}),
  });
  const apply = (courseId: string, moves: ReportMoves | undefined) => {
    if (!moves) return;
    const f = of(courseId);
    const lesson = (id: string) => (f.lessons[id] ??= { reached: 0, completed: 0 });
    if (moves.startedAt) f.started += 1;
    if (moves.courseCompleted) f.completed += 1;
    if (moves.reachedLessonId) lesson(moves.reachedLessonId).reached += 1;
    if (moves.completedLessonId) lesson(moves.completedLessonId).completed += 1;
    if (moves.quiz) {
      const quiz = (f.quizzes[moves.quiz.lessonId] ??= { attempts: 0, passes: 0, questions: {} });
      quiz.attempts += 1;
      if (moves.quiz.passed) quiz.passes += 1;
      for (const q of moves.quiz.questions) {
        const counted = (quiz.questions[q.key] ??= { answers: 0, correct: 0 });
        counted.answers += 1;
        if (q.correct) counted.correct += 1;
      }
    }
  };
  const repo: CourseReportRepository = { figures: async (courseId) => structuredClone(of(courseId)) };
  return Object.assign(repo, { allows, marked, apply });
};

export type MemoryCourseReports = ReturnType<typeof memoryCourseReports>;
