import type { AssignmentDefinition, Course, CreateLessonBody, Lesson, LessonAssignment, LessonKind, LessonRecord, QuizDefinition, ReorderLessonsBody, UpdateLessonBody } from '#contracts/courses.ts';
import { markdownToHtml } from '#contracts/markdown.ts';
import { IMMEDIATE, LESSONS_PER_COURSE_MAX, type LessonRelease, releaseOf } from '#contracts/courses.ts';
import { ConflictError, NotFoundError, ValidationError } from '#core/errors.ts';
import type { Clock, CourseRepository, Ids, StoredCourse } from '#core/ports.ts';
import { COURSE_NOT_FOUND, type CourseJobDeps, courseView, ownCourse } from '#core/courses/courses.ts';
import { type FileDeps, removeFiles } from '#core/files/files.ts';

/**
 * A course's lessons, for its creator: text lessons (HTML, sanitized on every save: the browser's editor is not
 * trusted), video lessons (a URL the contract already checked, or a video uploaded to the lesson, or neither yet) and
 * quiz lessons (questions with their right answers, kept from learners: core/enrollments/quizzes.ts).
 * Another creator's course or lesson is 404 and nothing is written. A lesson's files go with it.
 */
export const LESSON_NOT_FOUND = 'Lesson not found.';

export interface LessonDeps {
  courses: CourseRepository;
  clock: Clock;
}

export interface LessonEditDeps extends LessonDeps {
  /** The server's lesson sanitizer (adapters/html-sanitizer.ts): a fragment in, the allowed fragment out. */
  sanitize: (html: string) => string;
}

type LessonRef = { creatorId: string; courseId: string; lessonId: string };

const sanitized = (deps: Pick<LessonEditDeps, 'sanitize'>, html: string): string => {
  try {
    return deps.sanitize(html);
  } catch (error) {
    throw Object.assign(new ValidationError('This lesson cannot be made safe to show. Remove unusual markup and try again.'), { cause: error });
  }
};

const refused = (field: string, message: string) => new ValidationError(message, [{ path: [field], message }]);

/**
 * A lesson's content by kind: a text lesson has a body and no video URL, a video lesson no body (and a URL or not), a
 * quiz lesson its quiz and neither body nor video, an assignment lesson its task (instructions in Markdown, rendered
 * and sanitized here with the lesson rules, as a text lesson's body is) and neither body nor video.
 */
const content = (
  deps: Pick<LessonEditDeps, 'sanitize'>,
  kind: LessonKind,
  fields: {
    body?: string | null | undefined;
    videoUrl?: string | null | undefined;
    quiz?: QuizDefinition | null | undefined;
    assignment?: AssignmentDefinition | LessonAssignment | null | undefined;
  },
): Pick<Lesson, 'body' | 'videoUrl' | 'quiz' | 'assignment'> => {
  if (kind === 'assignment') {
    if (!fields.assignment) throw refused('assignment', 'An assignment lesson takes an assignment.');
    if (fields.body || fields.videoUrl || fields.quiz) throw refused('kind', 'An assignment lesson has no body, videoUrl or quiz.');
    const { instructions, acceptsFiles } = fields.assignment;
    return { body: null, videoUrl: null, quiz: null, assignment: { instructions, acceptsFiles, html: sanitized(deps, markdownToHtml(instructions)) } };
  }
  if (fields.assignment) throw refused('assignment', 'Only an assignment lesson takes an assignment.');
  if (kind === 'quiz') {
    if (!fields.quiz) throw refused('quiz', 'A quiz lesson takes a quiz.');
    if (fields.body || fields.videoUrl) throw refused('kind', 'A quiz lesson has no body or videoUrl.');
    return { body: null, videoUrl: null, quiz: fields.quiz, assignment: null };
  }
  if (fields.quiz) throw refused('quiz', 'Only a quiz lesson takes a quiz.');
  if (kind === 'text') {
    if (fields.videoUrl) throw refused('videoUrl', 'A text lesson has no videoUrl.');
    return { body: sanitized(deps, fields.body ?? ''), videoUrl: null, quiz: null, assignment: null };
  }
  if (fields.body) throw refused('body', 'A video lesson has no body.');
  return { body: null, videoUrl: fields.videoUrl ?? null, quiz: null, assignment: null };
};

const sameRelease = (a: LessonRelease, b: LessonRelease): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * A lesson's release set or changed: the course's enrolments' drip plans are planned again from the new outline by a
 * 'course-changed' run (core/courses/changes.ts 'drip-changed', a slice at a time), never in the request. Without the
 * job (the demo catalogue's seed, before anyone enrols) there is nothing to plan.
 */
const replanDrip = async (deps: Partial<CourseJobDeps>, courseId: string, version: string): Promise<void> => {
  await deps.jobs?.start({ change: 'drip-changed', courseId, version });
};

const findLesson = (course: StoredCourse, lessonId: string): Lesson => {
  const found = course.lessons.find((l) => l.id === lessonId);
  if (!found) throw new NotFoundError(LESSON_NOT_FOUND);
  return found;
};

/** POST /api/courses/{courseId}/lessons: appended after the last lesson. */
export const createLesson = async (deps: LessonEditDeps & { ids: Ids } & Partial<CourseJobDeps>, input: { creatorId: string; courseId: string; body: CreateLessonBody }): Promise<Lesson> => {
  const course = await ownCourse(deps, input.creatorId, input.courseId);
  if (course.lessons.length >= LESSONS_PER_COURSE_MAX) throw new ConflictError(`A course holds at most ${LESSONS_PER_COURSE_MAX} lessons.`);
  const now = deps.clock.now().toISOString();
  const lesson: LessonRecord = {
    id: deps.ids.newId(),
    courseId: input.courseId,
    title: input.body.title,
    kind: input.body.kind,
    ...content(deps, input.body.kind, input.body),
    position: course.lessons.length,
    release: input.body.release ?? IMMEDIATE,
    createdAt: now,
    updatedAt: now,
  };
  const result = await deps.courses.createLesson({ creatorId: input.creatorId, lesson });
  if (result === 'gone') throw new NotFoundError(COURSE_NOT_FOUND);
  if (result === 'full') throw new ConflictError(`A course holds at most ${LESSONS_PER_COURSE_MAX} lessons.`);
  if (releaseOf(lesson).kind !== 'immediate') await replanDrip(deps, input.courseId, now);
  return { ...lesson, files: [] };
};

/**
 * PATCH /api/courses/{courseId}/lessons/{lessonId}: any of the fields; the lesson must still be valid for its kind
 * (switching to text drops the video, switching to video drops the body). One video source per lesson: switching to
 * text or setting a `videoUrl` deletes the lesson's uploaded video file.
 */
export const updateLesson = async (deps: LessonEditDeps & FileDeps & Partial<CourseJobDeps>, input: LessonRef & { body: UpdateLessonBody }): Promise<Lesson> => {
  const course = await ownCourse(deps, input.creatorId, input.courseId);
  const { files, ...before } = findLesson(course, input.lessonId);
  const kind = input.body.kind ?? before.kind;
  const switched = kind !== before.kind;
  const lesson: LessonRecord = {
    ...before,
    title: input.body.title ?? before.title,
    kind,
    ...content(deps, kind, {
      body: input.body.body ?? (switched ? null : before.body),
      videoUrl: input.body.videoUrl ?? (switched ? null : before.videoUrl),
      quiz: input.body.quiz ?? (switched ? null : before.quiz),
      assignment: input.body.assignment ?? (switched ? null : before.assignment),
    }),
    release: input.body.release ?? before.release,
    updatedAt: deps.clock.now().toISOString(),
  };
  if ((await deps.courses.updateLesson({ creatorId: input.creatorId, lesson })) === 'gone') throw new NotFoundError(LESSON_NOT_FOUND);
  if (!sameRelease(releaseOf(before), releaseOf(lesson))) await replanDrip(deps, input.courseId, lesson.updatedAt);
  const videoGoes = kind !== 'video' || input.body.videoUrl !== undefined;
  if (!videoGoes || !files.some((f) => f.kind === 'video')) return { ...lesson, files };
  const videos = (await deps.files.listByLesson(input.courseId, input.lessonId)).filter((f) => f.kind === 'video');
  await removeFiles(deps, videos);
  return { ...lesson, files: files.filter((f) => f.kind !== 'video') };
};

/**
 * DELETE /api/courses/{courseId}/lessons/{lessonId}: answers the lesson as it was; the others keep their order. Its
 * files go after it, by a 'course-changed' run (uploads aborted, objects and items deleted): no file route reaches a
 * file of a lesson that is gone, and no upload can start on it.
 */
export const deleteLesson = async (deps: LessonDeps & CourseJobDeps, input: LessonRef): Promise<Lesson> => {
  const course = await ownCourse(deps, input.creatorId, input.courseId);
  const lesson = findLesson(course, input.lessonId);
  const updatedAt = deps.clock.now().toISOString();
  const result = await deps.courses.deleteLesson({ ...input, updatedAt });
  if (result === 'gone') throw new NotFoundError(LESSON_NOT_FOUND);
  await deps.jobs.start({ change: 'lesson-deleted', courseId: input.courseId, lessonId: input.lessonId, version: updatedAt });
  return lesson;
};

/**
 * PUT /api/courses/{courseId}/lessons/order: every lesson id of the course, each once, in the new order (400
 * otherwise, naming what is missing or unknown). Answers the course with its lessons in the new order.
 */
export const reorderLessons = async (deps: LessonDeps, input: { creatorId: string; courseId: string; body: ReorderLessonsBody }): Promise<Course> => {
  const course = await ownCourse(deps, input.creatorId, input.courseId);
  const order = input.body.lessonIds;
  const current = new Set(course.lessons.map((l) => l.id));
  const unknown = order.filter((id) => !current.has(id));
  const missing = [...current].filter((id) => !order.includes(id));
  if (new Set(order).size !== order.length || unknown.length > 0 || missing.length > 0) {
    throw new ValidationError('Send every lesson id of the course, each once, in the new order.', { unknown, missing });
  }
  const updatedAt = deps.clock.now().toISOString();
  const result = await deps.courses.reorderLessons({ creatorId: input.creatorId, courseId: input.courseId, order, updatedAt });
  if (result === 'gone') throw new ConflictError('The lessons changed while they were being reordered. Please try again.');
  const byId = new Map(course.lessons.map((l) => [l.id, l]));
  return courseView({ ...course, updatedAt, lessons: order.map((id, position) => ({ ...byId.get(id)!, position })) });
};
