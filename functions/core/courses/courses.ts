import { PAGE_SIZE, type PageRequest, type Paged } from '#contracts/common.ts';
import type { Course, CourseSummary, CreateCourseBody, UpdateCourseBody } from '#contracts/courses.ts';
import { NotFoundError } from '#core/errors.ts';
import type { CourseChangeJobs } from '#core/courses/changes.ts';
import type { Clock, CourseRecord, CourseRepository, Ids, StoredCourse } from '#core/ports.ts';

/**
 * A creator's courses: list, create, read, change, delete. A course of another creator is answered exactly as a
 * course that does not exist (404, never 403), so ids cannot be probed, and no write is made for it (the
 * repository's writes are conditioned on the owner too).
 */
export const COURSE_NOT_FOUND = 'Course not found.';

export interface CourseDeps {
  courses: CourseRepository;
  clock: Clock;
}

const summaryOf = ({ creatorId: _creatorId, updatedAt: _updatedAt, ...summary }: CourseRecord): CourseSummary => summary;
export const courseView = ({ creatorId: _creatorId, ...course }: StoredCourse): Course => course;

/** The caller's course with its lessons, or 404 (missing, or another creator's). */
export const ownCourse = async (deps: { courses: Pick<CourseRepository, 'getCourse'> }, creatorId: string, courseId: string): Promise<StoredCourse> => {
  const course = await deps.courses.getCourse(courseId);
  if (!course || course.creatorId !== creatorId) throw new NotFoundError(COURSE_NOT_FOUND);
  return course;
};

/** GET /api/courses: the creator's courses, newest first. */
/** GET /api/courses?cursor=&limit=: the creator's own courses, newest first, a page at a time (issue 28). */
export const listCourses = async (
  deps: { courses: Pick<CourseRepository, 'pageByCreator'> },
  input: { creatorId: string } & Partial<PageRequest>,
): Promise<Paged<CourseSummary>> => {
  const page = await deps.courses.pageByCreator(input.creatorId, { cursor: input.cursor, limit: input.limit ?? PAGE_SIZE });
  return { items: page.items.map(summaryOf), nextCursor: page.nextCursor };
};

/** POST /api/courses: a draft with no lessons; the creator's course counter moves with it. */
export const createCourse = async (deps: CourseDeps & { ids: Ids }, input: { creatorId: string; body: CreateCourseBody }): Promise<Course> => {
  const now = deps.clock.now().toISOString();
  const course: CourseRecord = {
    id: deps.ids.newId(),
    creatorId: input.creatorId,
    title: input.body.title,
    description: input.body.description ?? '',
    status: 'draft',
    lessonCount: 0,
    priceAmount: 0,
    seatPriceAmount: 0,
    enrolledCount: 0,
    createdAt: now,
    updatedAt: now,
  };
  await deps.courses.create(course);
  return courseView({ ...course, lessons: [] });
};

/** GET /api/courses/{courseId}: the course with its lessons in order. */
export const getCourse = async (deps: { courses: CourseRepository }, input: { creatorId: string; courseId: string }): Promise<Course> =>
  courseView(await ownCourse(deps, input.creatorId, input.courseId));

/** The queues of the jobs a route starts: the 'course-changed' job's (core/courses/changes.ts). */
export interface CourseJobDeps {
  jobs: CourseChangeJobs;
}

/**
 * PATCH /api/courses/{courseId}: title, description, publish / unpublish. Answers at once: a new title is stamped
 * (`titleChangedAt`) and carried onto the course's enrolments and licences by a 'course-changed' run started here;
 * the CRM and the learners' lists read the title from the course meanwhile. Publishing or unpublishing copies nothing
 * (the learner's routes read the status where it lives); publishing starts a run that enrols the live members of the
 * memberships giving the course (core/memberships/course-published.ts).
 */
export const updateCourse = async (
  deps: CourseDeps & CourseJobDeps,
  input: { creatorId: string; courseId: string; body: UpdateCourseBody },
): Promise<Course> => {
  const before = await ownCourse(deps, input.creatorId, input.courseId);
  const now = deps.clock.now().toISOString();
  const retitled = input.body.title !== undefined && input.body.title !== before.title;
  const saved = await deps.courses.update({
    courseId: input.courseId,
    creatorId: input.creatorId,
    changes: { ...input.body, updatedAt: now, ...(retitled ? { titleChangedAt: now } : {}) },
  });
  if (!saved) throw new NotFoundError(COURSE_NOT_FOUND);
  if (retitled) await deps.jobs.start({ change: 'renamed', courseId: input.courseId, title: saved.title, version: now });
  // Published now: its memberships' live members get it at once, not at their next renewal (issue 34).
  if (before.status !== 'published' && saved.status === 'published') {
    await deps.jobs.start({ change: 'published', courseId: input.courseId, creatorId: input.creatorId, version: now });
  }
  return courseView({ ...saved, lessons: before.lessons });
};

/**
 * DELETE /api/courses/{courseId}: the course, its lessons, its files and its enrolments go; the creator's counters
 * move with them. The course item goes at once (with its course counters), then a 'course-changed' run removes the
 * rest in slices: the files first (uploads aborted, objects deleted, then their items), then the rest of its partition
 * (enrolments with their learner counters, lessons). Answers at once, the course as it was; the CRM and the learners'
 * lists leave its enrolments out from this moment, and its files can no longer be reached (every file route reads the
 * course first).
 */
export const deleteCourse = async (
  deps: { courses: CourseRepository; clock: Clock } & CourseJobDeps,
  input: { creatorId: string; courseId: string },
): Promise<Course> => {
  const course = await ownCourse(deps, input.creatorId, input.courseId);
  if (!(await deps.courses.delete(input))) throw new NotFoundError(COURSE_NOT_FOUND);
  await deps.jobs.start({ change: 'deleted', courseId: input.courseId, creatorId: input.creatorId, version: deps.clock.now().toISOString() });
  return courseView(course);
};
