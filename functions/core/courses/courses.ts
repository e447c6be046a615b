import type { Course, CourseSummary, CreateCourseBody, UpdateCourseBody } from '#contracts/courses.ts';
import { NotFoundError } from '#core/errors.ts';
import { type FileDeps, removeFiles } from '#core/files/files.ts';
import type { Clock, CourseRecord, CourseRepository, EnrollmentRepository, Ids, StoredCourse } from '#core/ports.ts';

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
export const listCourses = async (deps: { courses: CourseRepository }, creatorId: string): Promise<{ items: CourseSummary[] }> => ({
  items: (await deps.courses.listByCreator(creatorId)).map(summaryOf),
});

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

/**
 * PATCH /api/courses/{courseId}: title, description, publish / unpublish. A new title is copied onto the course's
 * enrolments, where the CRM and the learners' lists read it.
 */
export const updateCourse = async (
  deps: CourseDeps & { enrollments: Pick<EnrollmentRepository, 'renameCourse'> },
  input: { creatorId: string; courseId: string; body: UpdateCourseBody },
): Promise<Course> => {
  const before = await ownCourse(deps, input.creatorId, input.courseId);
  const saved = await deps.courses.update({
    courseId: input.courseId,
    creatorId: input.creatorId,
    changes: { ...input.body, updatedAt: deps.clock.now().toISOString() },
  });
  if (!saved) throw new NotFoundError(COURSE_NOT_FOUND);
  if (input.body.title !== undefined && input.body.title !== before.title) await deps.enrollments.renameCourse(input.courseId, saved.title);
  return courseView({ ...saved, lessons: before.lessons });
};

/**
 * DELETE /api/courses/{courseId}: the course, its lessons, its files and its enrolments go; the creator's counters
 * move with it. The files go first (uploads aborted, objects deleted), so a failure leaves the course to delete again
 * rather than objects nobody can reach. Answers the course as it was.
 */
export const deleteCourse = async (deps: { courses: CourseRepository } & FileDeps, input: { creatorId: string; courseId: string }): Promise<Course> => {
  const course = await ownCourse(deps, input.creatorId, input.courseId);
  await removeFiles(deps, await deps.files.listByCourse(input.courseId));
  if (!(await deps.courses.delete(input))) throw new NotFoundError(COURSE_NOT_FOUND);
  return courseView(course);
};
