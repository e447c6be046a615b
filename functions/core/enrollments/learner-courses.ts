import { DEFAULT_CREATOR_NAME, PAGE_SIZE, type PageRequest } from '#contracts/common.ts';
import type { BrandingView } from '#contracts/branding.ts';
import type { CompleteLessonResponse, LessonRelease, LearnerCourse, LearnerCourseDetail, LearnerCourseList, LearnerCourseOutline, LearnerLesson, LearnerSummary, Lesson } from '#contracts/courses.ts';
import { COURSE_NOT_FOUND } from '#core/courses/courses.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '#core/errors.ts';
import { arrangementOf, learnerQuizView } from '#core/enrollments/quizzes.ts';
import { courseAccess, type AccessSources, type CourseAccess } from '#core/access/access.ts';
import type {
  Clock,
  CourseOutline,
  CourseRepository,
  Enrollment,
  EnrollmentRepository,
  LicenseRepository,
  PublicProfileRepository,
  QuizAttemptRepository,
  StoredCourse,
  StoredQuizAttempts,
} from '#core/ports.ts';
import { addDays, localDay, progressOf, STREAK_WINDOW_DAYS, studyStreak } from '#core/enrollments/progress.ts';
import { availableAt, lockedUntil, mustBeOpen, openLessonIds } from '#core/enrollments/drip.ts';
import { reportMoves } from '#core/reports/course-report.ts';

/**
 * The learner's side: their courses, a course with its lessons, completing a lesson, and 'My Learning'. A learner
 * reaches a course only while it is published and the access module (core/access/access.ts) opens it to them;
 * otherwise it is 404 with the same message as a course that does not exist.
 */

export const LESSON_NOT_FOUND = 'Lesson not found.';
export const DEFAULT_TIME_ZONE = 'UTC';

export interface LearnerDeps {
  courses: Pick<CourseRepository, 'getOutline' | 'getLesson'>;
  enrollments: EnrollmentRepository;
  licenses: Pick<LicenseRepository, 'get'>;
  /** The membership subscriptions an enrolment names (core/access/access.ts). */
  memberships?: AccessSources['memberships'];
  clock: Clock;
}

const toLearnerCourse = (e: Enrollment): LearnerCourse => ({
  courseId: e.courseId,
  title: e.courseTitle,
  progress: e.progress,
  lastActivity: e.lastActivity,
  completedAt: e.completedAt,
});

/** Most recent activity first. */
const byLastActivity = (a: LearnerCourse, b: LearnerCourse) => b.lastActivity.localeCompare(a.lastActivity);

/**
 * GET /api/learner/courses?cursor=&limit=: the learner's active enrolments a page at a time (in course order, as their
 * index keeps them), each page most recent activity first: with fewer courses than a page, the whole list in that order.
 */
export const learnerCourses = async (
  deps: { enrollments: Pick<EnrollmentRepository, 'pageByLearner'> },
  input: { learnerId: string } & Partial<PageRequest>,
): Promise<LearnerCourseList> => {
  const page = await deps.enrollments.pageByLearner(input.learnerId, { cursor: input.cursor, limit: input.limit ?? PAGE_SIZE });
  return { items: page.items.map(toLearnerCourse).sort(byLastActivity), nextCursor: page.nextCursor };
};

export const LICENSE_ENDED_ACCESS = "Your team's licence for this course has ended. Ask your group leader for access.";

/**
 * The course as the access module answers it (core/access/access.ts) for a published course: its enrolment, or 404
 * with the same message as a course that does not exist, or 403 when the learner's only access was a team licence that
 * has ended. The course and the access are read side by side.
 */
const reachable = <C extends { status: string }>(course: C | undefined, access: CourseAccess): { course: C; enrollment: Enrollment } => {
  if (!course || course.status !== 'published' || (!access.open && access.reason === 'none')) throw new NotFoundError(COURSE_NOT_FOUND);
  if (!access.open) throw new ForbiddenError(LICENSE_ENDED_ACCESS);
  return { course, enrollment: access.enrollment };
};

/** The published course (with its lessons' bodies) and the learner's enrolment in it, when they may open it. */
export const reachableCourse = async (deps: AccessSources & { courses: Pick<CourseRepository, 'getCourse'> }, learnerId: string, courseId: string) => {
  const [course, access] = await Promise.all([deps.courses.getCourse(courseId), courseAccess(deps, learnerId, courseId)]);
  return reachable(course, access);
};

/**
 * reachableCourse's rules on the course's outline (its item and lessons without bodies, read eventually consistently):
 * what a learner's lesson write needs (completing it), without reading every lesson's body. Also the course files'
 * download rule.
 */
export const reachableOutline = async (
  deps: AccessSources & { courses: Pick<CourseRepository, 'getOutline'> },
  learnerId: string,
  courseId: string,
): Promise<{ course: CourseOutline; enrollment: Enrollment }> => {
  const [course, access] = await Promise.all([deps.courses.getOutline(courseId), courseAccess(deps, learnerId, courseId)]);
  return reachable(course, access);
};

const lessonIds = (course: Pick<StoredCourse, 'lessons'> | CourseOutline) => course.lessons.map((l) => l.id);

type LearnerReadDeps = Pick<LearnerDeps, 'enrollments' | 'licenses' | 'memberships' | 'clock'>;
type Profiles = {
  profiles: Pick<PublicProfileRepository, 'get'>;
  /** The creator's branding in force (core/branding brandingInForceView), or null. */
  branding: (creatorId: string) => Promise<BrandingView | null>;
};

/**
 * The course's own fields as its learner sees them: the creator's public name (their email stays private), progress
 * (of the lessons open to them now: a drip lesson still locked does not count yet).
 */
const courseHead = (
  course: CourseOutline,
  enrollment: Enrollment,
  profile: { displayName: string } | undefined,
  lessons: readonly Released[],
  branding: BrandingView | null,
  now: Date,
) => ({
  courseId: course.id,
  title: course.title,
  description: course.description,
  creatorName: profile?.displayName ?? DEFAULT_CREATOR_NAME,
  progress: progressOf(enrollment.completedLessonIds, openLessonIds(lessons, enrollment.enrolledAt, now)),
  lastActivity: enrollment.lastActivity,
  completedAt: enrollment.completedAt,
  branding,
});

type Released = { id: string; release?: LessonRelease | undefined };

/** A drip lesson locked for the learner: its title, place and opening, none of its content. */
const lockedLessonView = (lesson: Pick<Lesson, 'id' | 'title' | 'kind'>, position: number, opensAt: string): LearnerLesson => ({
  id: lesson.id,
  title: lesson.title,
  kind: lesson.kind,
  body: null,
  videoUrl: null,
  position,
  files: [],
  completed: false,
  quiz: null,
  locked: true,
  availableAt: opensAt,
});

/** A lesson as its learner sees it: ready files only, and never the quiz as stored (its right answers stay here). */
const learnerLessonView = (lesson: Lesson, position: number, enrollment: Pick<Enrollment, 'learnerId' | 'enrolledAt'>, completed: boolean, attempts: StoredQuizAttempts | undefined): LearnerLesson => ({
  id: lesson.id,
  title: lesson.title,
  kind: lesson.kind,
  body: lesson.body,
  videoUrl: lesson.videoUrl,
  position,
  files: lesson.files.filter((f) => f.status === 'ready'),
  completed,
  quiz: lesson.quiz ? learnerQuizView(lesson.quiz, arrangementOf(lesson.quiz, enrollment.learnerId, lesson.id), attempts) : null,
  assignment: lesson.assignment ?? null,
  locked: false,
  availableAt: availableAt(lesson.release, enrollment.enrolledAt),
});

/**
 * GET /api/learner/courses/{courseId}: the lessons in order with their bodies, each marked completed or not; progress
 * from the current lessons. The outline first (course item and outline, eventually consistent: the access rules, and
 * whether the course has a quiz), then the lessons with their files in one eventually consistent Query, beside the
 * creator's profile and the learner's quiz attempts: a learner who may not read the course costs no lesson read.
 */
export const learnerCourseDetail = async (
  deps: LearnerReadDeps & Profiles & { courses: Pick<CourseRepository, 'getOutline' | 'getLessons'>; quizzes: Pick<QuizAttemptRepository, 'listByLearner'> },
  input: { learnerId: string; courseId: string },
): Promise<LearnerCourseDetail> => {
  const { course, enrollment } = await reachableOutline(deps, input.learnerId, input.courseId);
  const [lessons, profile, attempts, branding] = await Promise.all([
    deps.courses.getLessons(course.id),
    deps.profiles.get(course.creatorId),
    course.lessons.some((l) => l.kind === 'quiz') ? deps.quizzes.listByLearner(course.id, input.learnerId) : [],
    deps.branding(course.creatorId),
  ]);
  const attemptsOf = new Map(attempts.map((a) => [a.lessonId, a]));
  const completed = new Set(enrollment.completedLessonIds);
  const now = deps.clock.now();
  return {
    ...courseHead(course, enrollment, profile, lessons, branding, now),
    lessons: lessons.map((lesson) => {
      const opensAt = lockedUntil(lesson.release, enrollment.enrolledAt, now);
      return opensAt !== undefined
        ? lockedLessonView(lesson, lesson.position, opensAt)
        : learnerLessonView(lesson, lesson.position, enrollment, completed.has(lesson.id), attemptsOf.get(lesson.id));
    }),
  };
};

/**
 * GET /api/learner/courses/{courseId}/outline: the course as the player's frame shows it (the lessons in order, each
 * marked completed or not, and progress) from the outline alone: no lesson body is read.
 */
export const learnerCourseOutline = async (deps: LearnerReadDeps & Profiles & { courses: Pick<CourseRepository, 'getOutline'> }, input: { learnerId: string; courseId: string }): Promise<LearnerCourseOutline> => {
  const { course, enrollment } = await reachableOutline(deps, input.learnerId, input.courseId);
  const [profile, branding] = await Promise.all([deps.profiles.get(course.creatorId), deps.branding(course.creatorId)]);
  const completed = new Set(enrollment.completedLessonIds);
  const now = deps.clock.now();
  return {
    ...courseHead(course, enrollment, profile, course.lessons, branding, now),
    lessons: course.lessons.map(({ id, title, kind, position, release }) => {
      const locked = lockedUntil(release, enrollment.enrolledAt, now) !== undefined;
      return { id, title, kind, position, completed: !locked && completed.has(id), locked, availableAt: availableAt(release, enrollment.enrolledAt) };
    }),
  };
};

/**
 * GET /api/learner/courses/{courseId}/lessons/{lessonId}: one lesson as the course answers it (body, video, ready
 * files, the quiz without its answers, completed or not), read alone: the outline (the course's rules, the lesson's
 * place) beside the lesson's item and files, then the learner's attempts at it when it is a quiz. A lesson the
 * outline does not list (another course's, deleted) is 404 "Lesson not found.".
 */
export const learnerLesson = async (
  deps: LearnerReadDeps & { courses: Pick<CourseRepository, 'getOutline' | 'getLesson'>; quizzes: Pick<QuizAttemptRepository, 'get'> },
  input: { learnerId: string; courseId: string; lessonId: string },
): Promise<LearnerLesson> => {
  const [{ course, enrollment }, lesson] = await Promise.all([
    reachableOutline(deps, input.learnerId, input.courseId),
    deps.courses.getLesson(input.courseId, input.lessonId),
  ]);
  const listed = course.lessons.find((l) => l.id === input.lessonId);
  if (!listed || !lesson) throw new NotFoundError(LESSON_NOT_FOUND);
  mustBeOpen(listed, enrollment.enrolledAt, deps.clock.now());
  const [attempts] = await Promise.all([lesson.quiz ? deps.quizzes.get(course.id, input.learnerId, lesson.id) : undefined, reachLesson(deps, enrollment, lesson.id)]);
  return learnerLessonView(lesson, listed.position, enrollment, enrollment.completedLessonIds.includes(lesson.id), attempts);
};

/** A lost race on the enrolment's report marks: read again, this many times. */
const REACH_ATTEMPTS = 3;

/**
 * The lesson opened: the first time, the course report counts it reached (and the learner started, at their first
 * activity), marked on the enrolment in the same write. Opening it again writes nothing.
 */
const reachLesson = async (deps: Pick<LearnerDeps, 'enrollments' | 'clock'>, read: Enrollment, lessonId: string): Promise<void> => {
  let enrollment: Enrollment | undefined = read;
  for (let attempt = 1; enrollment?.status === 'active' && attempt <= REACH_ATTEMPTS; attempt++) {
    const report = reportMoves(enrollment, { kind: 'opened', lessonId }, deps.clock.now().toISOString());
    if (!report) return;
    if ((await deps.enrollments.reachLesson({ courseId: enrollment.courseId, learnerId: enrollment.learnerId, report })) === 'reached') return;
    enrollment = await deps.enrollments.get(enrollment.courseId, enrollment.learnerId);
  }
};

/** Another completion of the same enrolment landed between our read and our write: read again, this many times. */
const COMPLETE_ATTEMPTS = 5;

export const QUIZ_COMPLETES_ITSELF = 'Pass the quiz to complete this lesson.';
export const ASSIGNMENT_COMPLETES_ITSELF = 'This lesson is complete once the creator passes your assignment.';

/**
 * POST /api/learner/courses/{courseId}/lessons/{lessonId}/complete (a quiz lesson is completed by passing it, an
 * assignment lesson by its creator passing the learner's submission: 409).
 * Idempotent: a lesson already completed changes nothing (no write, the same answer). Otherwise one write: the lesson
 * added, progress recomputed from the current lessons, lastActivity now, completedAt set the first time progress
 * reaches 100 (and never unset), and the day marked active in the learner's time zone (the study streak).
 */
export const completeLesson = (deps: LearnerDeps, input: LessonDone): Promise<CompleteLessonResponse> => lessonDone(deps, input, { quizPassed: false });

type LessonDone = { learnerId: string; courseId: string; lessonId: string; timeZone?: string | undefined };

/**
 * The lesson marked done for the learner (completeLesson's rules); a quiz lesson only once its quiz is passed, an
 * assignment lesson only once its creator passed the learner's submission (core/assignments/assignments.ts).
 */
export const lessonDone = async (deps: LearnerDeps, input: LessonDone, options: { quizPassed: boolean; assignmentPassed?: boolean }): Promise<CompleteLessonResponse> => {
  for (let attempt = 1; attempt <= COMPLETE_ATTEMPTS; attempt++) {
    // The outline (no lesson bodies, eventually consistent): progress counts the lessons it lists.
    const { course, enrollment } = await reachableOutline(deps, input.learnerId, input.courseId);
    const lesson = course.lessons.find((l) => l.id === input.lessonId);
    if (!lesson) throw new NotFoundError(LESSON_NOT_FOUND);
    const now = deps.clock.now();
    mustBeOpen(lesson, enrollment.enrolledAt, now);
    if (enrollment.completedLessonIds.includes(input.lessonId)) return { progress: enrollment.progress, completedAt: enrollment.completedAt };
    if (lesson.kind === 'quiz' && !options.quizPassed) throw new ConflictError(QUIZ_COMPLETES_ITSELF);
    if (lesson.kind === 'assignment' && options.assignmentPassed !== true) throw new ConflictError(ASSIGNMENT_COMPLETES_ITSELF);
    const at = now.toISOString();
    const done = [...enrollment.completedLessonIds, input.lessonId];
    // Progress counts the lessons open now; the course is complete (and its certificate due) only once every lesson
    // is done, so a learner ahead of the drip is at 100% of what is open, not finished.
    const progress = progressOf(done, openLessonIds(course.lessons, enrollment.enrolledAt, now));
    const completedAt = enrollment.completedAt ?? (progressOf(done, lessonIds(course)) === 100 ? at : null);
    const report = reportMoves(enrollment, { kind: 'completed', lessonId: input.lessonId, courseCompleted: completedAt !== null && !enrollment.completedAt }, at);
    const outcome = await deps.enrollments.completeLesson({
      courseId: course.id,
      learnerId: input.learnerId,
      creatorId: enrollment.creatorId,
      lessonId: input.lessonId,
      seenCount: enrollment.completedLessonIds.length,
      progress,
      at,
      day: localDay(now, input.timeZone ?? DEFAULT_TIME_ZONE),
      ...(completedAt && !enrollment.completedAt ? { completedAt } : {}),
      ...(report ? { report } : {}),
    });
    if (outcome === 'completed') return { progress, completedAt };
  }
  throw new Error(`enrolment ${input.courseId}/${input.learnerId} kept changing`);
};

/**
 * GET /api/learner/summary ('My Learning'): counts of the active enrolments, the study streak in the learner's
 * time zone, and the courses not yet completed, most recent activity first.
 */
export const learnerSummary = async (deps: Pick<LearnerDeps, 'enrollments' | 'clock'>, input: { learnerId: string; timeZone?: string }): Promise<LearnerSummary> => {
  const today = localDay(deps.clock.now(), input.timeZone ?? DEFAULT_TIME_ZONE);
  const [enrollments, days] = await Promise.all([
    deps.enrollments.listByLearner(input.learnerId),
    deps.enrollments.activityDays(input.learnerId, addDays(today, -STREAK_WINDOW_DAYS)),
  ]);
  return {
    enrolled: enrollments.length,
    completed: enrollments.filter((e) => e.completedAt !== null).length,
    certificates: enrollments.filter((e) => e.certificateId).length,
    studyStreak: studyStreak(days, today),
    // The most recent PAGE_SIZE unfinished courses: the answer stays bounded (issue 28); 'All my courses' pages the rest.
    continueLearning: enrollments.filter((e) => e.completedAt === null).map(toLearnerCourse).sort(byLastActivity).slice(0, PAGE_SIZE),
  };
};
