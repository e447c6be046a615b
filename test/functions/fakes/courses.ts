import { type Lesson, type LessonRecord, LESSONS_PER_COURSE_MAX, type QuizDefinition } from '#contracts/courses.ts';
import { fileView } from '#core/files/files.ts';
import type { StoredFile } from '#core/files/ports.ts';
import { type CourseChange, courseChange, type CourseChangeJobs } from '#core/courses/changes.ts';
import type { CourseRecord, CourseRepository, CreatorCounterDeltas } from '#core/ports.ts';
import { NOW } from './clock.ts';
import { copy, withHooks } from './hooks.ts';
import { pageOf } from './paging.ts';

/** A course as stored (no lessons): a published 'Knife skills' of creator c1 at £29 (£20 a seat), made at NOW; `over` changes any of it. */
export const courseRecord = (over: Partial<CourseRecord> = {}): CourseRecord => ({
  id: 'course-1',
  creatorId: 'c1',
  title: 'Knife skills',
  description: 'Chop like a chef.',
  status: 'published',
  lessonCount: 0,
  enrolledCount: 0,
  priceAmount: 2900,
  seatPriceAmount: 2000,
  createdAt: NOW,
  updatedAt: NOW,
  ...over,
});

/** A lesson of course c1 as a learner reads it: text 'Lesson <id>', or with `quiz` the quiz 'Check yourself'; no files. */
export const courseLesson = (id: string, position: number, quiz: QuizDefinition | null = null, over: Partial<Lesson> = {}): Lesson => ({
  id,
  courseId: 'c1',
  title: quiz ? 'Check yourself' : `Lesson ${id}`,
  kind: quiz ? 'quiz' : 'text',
  body: quiz ? null : '<p>Hi</p>',
  videoUrl: null,
  quiz,
  position,
  createdAt: NOW,
  updatedAt: NOW,
  files: [],
  ...over,
});

/**
 * Courses with the conditions of functions/data/courses.ts: every write naming a creator happens only while the
 * course is that creator's ('gone' otherwise), a course holds at most LESSONS_PER_COURSE_MAX lessons, and the
 * creator's counters move with the course's creation and deletion. `enrollments` stands for the enrolment items of
 * the course's partition (a delete leaves them to the 'course-changed' job, as the real one does). `files` stands for the File items of the
 * partition (test/functions/fakes/files.ts): a course is read with its lessons' files, as the real one reads them.
 */
export const memoryCourses = (files: () => readonly StoredFile[] = () => []) => {
  const courses = new Map<string, CourseRecord>();
  const lessons = new Map<string, Map<string, LessonRecord>>();
  const enrollments = new Map<string, { learnerId: string; active: boolean; completed: boolean }[]>();
  const counters = new Map<string, Required<CreatorCounterDeltas>>();

  const move = (creatorId: string, deltas: CreatorCounterDeltas) => {
    const current = counters.get(creatorId) ?? { courses: 0, students: 0, completions: 0, certificates: 0 };
    counters.set(creatorId, {
      courses: current.courses + (deltas.courses ?? 0),
      students: current.students + (deltas.students ?? 0),
      completions: current.completions + (deltas.completions ?? 0),
      certificates: current.certificates + (deltas.certificates ?? 0),
    });
  };
  const owned = (courseId: string, creatorId: string) => courses.get(courseId)?.creatorId === creatorId;
  const ordered = (courseId: string): Lesson[] =>
    [...(lessons.get(courseId)?.values() ?? [])]
      .sort((a, b) => a.position - b.position || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
      .map((l, position) => ({
        ...copy(l),
        position,
        files: files()
          .filter((f) => f.courseId === courseId && f.lessonId === l.id)
          .map((f) => fileView(copy(f))),
      }));

  const repo = withHooks<CourseRepository>({
    async create(course) {
      if (courses.has(course.id)) throw new Error(`Course id ${course.id} is already taken.`);
      courses.set(course.id, copy(course));
      lessons.set(course.id, new Map());
      move(course.creatorId, { courses: 1 });
    },

    async getCourse(courseId) {
      const course = courses.get(courseId);
      return course && { ...copy(course), lessons: ordered(courseId) };
    },

    async getOutline(courseId) {
      const course = courses.get(courseId);
      return (
        course && {
          ...copy(course),
          lessons: ordered(courseId).map(({ id, title, kind, position, createdAt, release }) => ({ id, title, kind, position, createdAt, release })),
        }
      );
    },

    async getLessons(courseId) {
      return ordered(courseId);
    },

    async getLesson(courseId, lessonId) {
      return ordered(courseId).find((l) => l.id === lessonId);
    },

    async listByCreator(creatorId, options = {}) {
      const mine = [...courses.values()].filter((c) => c.creatorId === creatorId).sort((a, b) => `${b.createdAt}#${b.id}`.localeCompare(`${a.createdAt}#${a.id}`));
      return copy(mine.slice(0, options.limit ?? mine.length));
    },

    async pageByCreator(creatorId, page) {
      return pageOf(copy([...courses.values()].filter((c) => c.creatorId === creatorId).sort((a, b) => `${b.createdAt}#${b.id}`.localeCompare(`${a.createdAt}#${a.id}`))), page);
    },

    async listAll(cursor, limit) {
      const all = [...courses.values()].sort((a, b) => `${b.createdAt}#${b.id}`.localeCompare(`${a.createdAt}#${a.id}`));
      const from = cursor ? Number(cursor) : 0;
      return { items: copy(all.slice(from, from + limit)), nextCursor: from + limit < all.length ? String(from + limit) : null };
    },

    async update({ courseId, creatorId, changes }) {
      if (!owned(courseId, creatorId)) return undefined;
      const saved = { ...courses.get(courseId)!, ...Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) };
      courses.set(courseId, saved);
      return copy(saved);
    },

    async delete({ courseId, creatorId }) {
      // As the real one: the course item and its course counter; the rest of the partition is the job's.
      if (!owned(courseId, creatorId)) return false;
      move(creatorId, { courses: -1 });
      courses.delete(courseId);
      return true;
    },

    async createLesson({ creatorId, lesson }) {
      const course = courses.get(lesson.courseId);
      if (!course || course.creatorId !== creatorId) return 'gone';
      if (course.lessonCount >= LESSONS_PER_COURSE_MAX) return 'full';
      lessons.get(lesson.courseId)!.set(lesson.id, copy(lesson));
      course.lessonCount += 1;
      course.updatedAt = lesson.createdAt;
      return 'created';
    },

    async updateLesson({ creatorId, lesson }) {
      const stored = lessons.get(lesson.courseId)?.get(lesson.id);
      if (!owned(lesson.courseId, creatorId) || !stored) return 'gone';
      lessons.get(lesson.courseId)!.set(lesson.id, { ...copy(lesson), position: stored.position });
      return 'updated';
    },

    async deleteLesson({ creatorId, courseId, lessonId, updatedAt }) {
      if (!owned(courseId, creatorId) || !lessons.get(courseId)?.has(lessonId)) return 'gone';
      lessons.get(courseId)!.delete(lessonId);
      const course = courses.get(courseId)!;
      course.lessonCount -= 1;
      course.updatedAt = updatedAt;
      return 'deleted';
    },

    async reorderLessons({ creatorId, courseId, order, updatedAt }) {
      const stored = lessons.get(courseId);
      if (!owned(courseId, creatorId) || !stored || order.some((id) => !stored.has(id))) return 'gone';
      order.forEach((id, position) => (stored.get(id)!.position = position));
      courses.get(courseId)!.updatedAt = updatedAt;
      return 'reordered';
    },
  });

  return Object.assign(repo, {
    /** Test setup: an enrolment item in the course's partition (what the enrolments feature writes). */
    addEnrollment(courseId: string, enrollment: { learnerId: string; active: boolean; completed: boolean; creatorId: string }) {
      enrollments.set(courseId, [...(enrollments.get(courseId) ?? []), enrollment]);
      if (enrollment.active) move(enrollment.creatorId, { students: 1, completions: enrollment.completed ? 1 : 0 });
    },
    enrollmentsOf: (courseId: string) => copy(enrollments.get(courseId) ?? []),
    counters: (creatorId: string) => counters.get(creatorId) ?? { courses: 0, students: 0, completions: 0 },
  });
};

/** The job queue of the course routes: records the 'course-changed' runs they start (renames and deletions). */
export const recordingRenames = () => {
  const started: CourseChange[] = [];
  const jobs: CourseChangeJobs = {
    async start(change) {
      started.push(courseChange.parse(change));
    },
  };
  const changes = () => started;
  return {
    jobs,
    started,
    get renames() {
      return changes().flatMap((c) => (c.change === 'renamed' ? [{ courseId: c.courseId, title: c.title }] : []));
    },
    get deletions() {
      return changes().flatMap((c) => (c.change === 'deleted' ? [{ courseId: c.courseId, creatorId: c.creatorId }] : []));
    },
  };
};
