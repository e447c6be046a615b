import { hasFeature, requiredPlan, type FeatureKey } from '#contracts/entitlements.ts';
import type { CourseReport } from '#contracts/reports.ts';
import type { QuizDefinition } from '#contracts/courses.ts';
import { creatorPlanOf, planOf } from '#core/billing/subscription-state.ts';
import { COURSE_NOT_FOUND } from '#core/courses/courses.ts';
import { NotFoundError, PlanRequiredError } from '#core/errors.ts';
import type { BillingRepository, CourseRepository, Enrollment, ReportMoves } from '#core/ports.ts';
import type { CourseFigures, CourseReportRepository } from '#core/reports/ports.ts';

/**
 * The course report (issue 29 point 3; docs/decisions/0045-course-reports.md): figures maintained by the writes that
 * change progress (reportMoves, below, decides what each write moves from the enrolment as read), read summed from
 * their shards and shaped here. Nothing here reads an enrolment: the report costs the same at 10 learners as at 10,000.
 */

/** FNV-1a of a question's prompt (trimmed), base 36: its figures follow the question when the quiz is reordered. */
export const questionKey = (prompt: string): string => {
  const text = prompt.trim();
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
};

type Marks = Pick<Enrollment, 'startedAt' | 'reachedLessonIds'>;

/** A learner's activity on one lesson, as the report counts it. */
export type ProgressEvent =
  | { kind: 'opened'; lessonId: string }
  | { kind: 'completed'; lessonId: string; courseCompleted: boolean }
  | { kind: 'attempted'; lessonId: string; quiz: QuizDefinition; passed: boolean; correct: readonly { from: number; correct: boolean }[] };

/**
 * What `event` moves in the report, given the enrolment as read: the learner's first activity (`startedAt`), the
 * lesson's first reach, its completion, the course's completion, a quiz attempt with each question's outcome (keyed by
 * the stored question's prompt, whatever order the learner saw). The write carrying these is conditioned on the marks
 * as read, so a retry or a race counts each once. Undefined when nothing moves (a lesson opened again).
 */
export const reportMoves = (enrollment: Marks, event: ProgressEvent, at: string): ReportMoves | undefined => {
  const moves: ReportMoves = {
    ...(enrollment.startedAt ? {} : { startedAt: at }),
    ...((enrollment.reachedLessonIds ?? []).includes(event.lessonId) ? {} : { reachedLessonId: event.lessonId }),
  };
  if (event.kind === 'completed') {
    moves.completedLessonId = event.lessonId;
    if (event.courseCompleted) moves.courseCompleted = true;
  }
  if (event.kind === 'attempted') {
    moves.quiz = {
      lessonId: event.lessonId,
      passed: event.passed,
      questions: event.correct.map(({ from, correct }) => ({ key: questionKey(event.quiz.questions[from]?.prompt ?? String(from)), correct })),
    };
  }
  return Object.keys(moves).length > 0 ? moves : undefined;
};

const rate = (part: number, whole: number): number => (whole > 0 ? Math.min(1, Math.round((part / whole) * 1000) / 1000) : 0);

/**
 * The report from the course (its lessons in order, with their quizzes as stored now), its enrolled count and the
 * summed figures. A lesson or question with no figure yet counts 0; figures of deleted lessons or changed prompts are
 * not shown.
 */
export const courseReportOf = (
  course: { id: string; title: string; enrolledCount: number; lessons: readonly { id: string; title: string; kind: string; quiz?: QuizDefinition | null | undefined }[] },
  figures: CourseFigures,
): CourseReport => {
  const completed = Math.max(0, figures.completed);
  return {
    courseId: course.id,
    title: course.title,
    enrolled: course.enrolledCount,
    started: Math.max(0, figures.started),
    completed,
    completionRate: rate(completed, course.enrolledCount),
    lessons: course.lessons.map((lesson) => ({
      lessonId: lesson.id,
      title: lesson.title,
      kind: lesson.kind,
      reached: figures.lessons[lesson.id]?.reached ?? 0,
      completed: figures.lessons[lesson.id]?.completed ?? 0,
    })),
    quizzes: course.lessons.flatMap((lesson) => {
      if (!lesson.quiz) return [];
      const quiz = figures.quizzes[lesson.id];
      const attempts = quiz?.attempts ?? 0;
      return [
        {
          lessonId: lesson.id,
          title: lesson.title,
          attempts,
          passRate: rate(quiz?.passes ?? 0, attempts),
          questions: lesson.quiz.questions.map((question) => {
            const counted = quiz?.questions[questionKey(question.prompt)];
            return { prompt: question.prompt, answers: counted?.answers ?? 0, correctRate: rate(counted?.correct ?? 0, counted?.answers ?? 0) };
          }),
        },
      ];
    }),
  };
};

/**
 * A creator's plan must include `feature` (403 PLAN_REQUIRED naming the plan that does). The route table declares the
 * same feature for the middleware (issue 29 point 1); this keeps the use case's own rule true wherever it is called.
 */
export const requireFeature = async (deps: { billing: Pick<BillingRepository, 'getSubscription'> }, creatorId: string, feature: FeatureKey): Promise<void> => {
  if (!hasFeature(await creatorPlanOf(deps, creatorId), feature)) throw new PlanRequiredError(requiredPlan(feature));
};

/**
 * GET /api/creator/reports/courses/{courseId}: the course (its item and lessons: flat in its learners), the report's
 * figures (one BatchGetItem of its shards) and the creator's plan, side by side. Another creator's course, or none, is
 * 404 before the plan is looked at (what an outsider learns is the same either way); then a plan without detailed
 * reports is 403 PLAN_REQUIRED.
 */
export const courseReport = async (
  deps: { courses: Pick<CourseRepository, 'getCourse'>; reports: CourseReportRepository; billing: Pick<BillingRepository, 'getSubscription'> },
  input: { creatorId: string; courseId: string },
): Promise<CourseReport> => {
  const [course, figures, plan] = await Promise.all([
    deps.courses.getCourse(input.courseId),
    deps.reports.figures(input.courseId),
    deps.billing.getSubscription(input.creatorId).then(planOf),
  ]);
  if (!course || course.creatorId !== input.creatorId) throw new NotFoundError(COURSE_NOT_FOUND);
  if (!hasFeature(plan, 'detailedReports')) throw new PlanRequiredError(requiredPlan('detailedReports'));
  return courseReportOf(course, figures);
};
