import { sourcesOf } from '#core/access/access.ts';
import { pageOf } from './paging.ts';
import type { CourseRepository, Enrollment, EnrollmentRepository, Mailer, MailQueue, QueuedItem, StoredCourse } from '#core/ports.ts';
import { copy, withHooks } from './hooks.ts';
import { memoryCourseReports, type MemoryCourseReports } from './course-reports.ts';

/**
 * Enrolments with the rules of functions/data/enrollments.ts: one per course and learner; a removed one comes back
 * with its progress; a completion applies only while the enrolment is active and its completed list is as long as
 * the caller saw; the creator's `students`/`completions` counters move with each change; one activity day per day.
 */
export const memoryEnrollments = (reports: MemoryCourseReports = memoryCourseReports()) => {
  const items = new Map<string, Enrollment>();
  const days = new Map<string, Set<string>>();
  const stats = new Map<string, { students: number; completions: number }>();
  const key = (courseId: string, learnerId: string) => `${courseId}/${learnerId}`;
  const move = (creatorId: string, deltas: { students?: number; completions?: number }) => {
    const s = stats.get(creatorId) ?? { students: 0, completions: 0 };
    stats.set(creatorId, { students: s.students + (deltas.students ?? 0), completions: s.completions + (deltas.completions ?? 0) });
  };
  const repo = withHooks<EnrollmentRepository>({
    async enroll({ source, ...input }) {
      const existing = items.get(key(input.courseId, input.learnerId));
      if (existing?.status === 'active') {
        if (!source || sourcesOf(existing).includes(source)) return { status: 'already' };
        items.set(key(input.courseId, input.learnerId), { ...existing, sources: [...sourcesOf(existing), source] });
        return { status: 'added' };
      }
      if (existing) {
        const { licenseId: _previous, sources: _before, ...kept } = existing;
        const restored: Enrollment = {
          ...kept,
          status: 'active',
          learnerEmail: input.learnerEmail,
          courseTitle: input.courseTitle,
          ...(input.licenseId ? { licenseId: input.licenseId } : {}),
          ...(source ? { sources: [source] } : {}),
        };
        items.set(key(input.courseId, input.learnerId), copy(restored));
        move(existing.creatorId, { students: 1, completions: existing.completedAt ? 1 : 0 });
        return { status: 'restored', enrollment: copy(restored) };
      }
      const enrollment: Enrollment = { ...input, ...(source ? { sources: [source] } : {}), status: 'active', completedLessonIds: [], progress: 0, lastActivity: input.enrolledAt, completedAt: null };
      items.set(key(input.courseId, input.learnerId), copy(enrollment));
      move(input.creatorId, { students: 1 });
      return { status: 'enrolled', enrollment: copy(enrollment) };
    },
    async remove(courseId, learnerId) {
      const existing = items.get(key(courseId, learnerId));
      if (existing?.status !== 'active') return 'missing';
      const { sources: _gone, ...kept } = existing;
      items.set(key(courseId, learnerId), { ...kept, status: 'removed' });
      move(existing.creatorId, { students: -1, completions: existing.completedAt ? -1 : 0 });
      return 'removed';
    },
    async revokeSource(courseId, learnerId, source) {
      const existing = items.get(key(courseId, learnerId));
      if (existing?.status !== 'active' || !sourcesOf(existing).includes(source)) return 'missing';
      const rest = sourcesOf(existing).filter((s) => s !== source);
      if (rest.length === 0) {
        const { sources: _gone, ...kept } = existing;
        items.set(key(courseId, learnerId), { ...kept, status: 'removed' });
        move(existing.creatorId, { students: -1, completions: existing.completedAt ? -1 : 0 });
        return 'removed';
      }
      items.set(key(courseId, learnerId), { ...existing, sources: rest });
      return 'kept';
    },
    async getMany(courseId, learnerIds) {
      return learnerIds.flatMap((learnerId) => {
        const found = items.get(key(courseId, learnerId));
        return found ? [copy(found)] : [];
      });
    },
    async get(courseId, learnerId) {
      const e = items.get(key(courseId, learnerId));
      return e && copy(e);
    },
    async listByCourse(courseId) {
      return { items: [...items.values()].filter((e) => e.courseId === courseId).map(copy), cursor: null };
    },
    async listByLearner(learnerId) {
      return [...items.values()].filter((e) => e.learnerId === learnerId && e.status === 'active').map(copy);
    },
    async pageByLearner(learnerId, page) {
      const mine = [...items.values()].filter((e) => e.learnerId === learnerId && e.status === 'active').sort((a, b) => (a.courseId < b.courseId ? -1 : 1));
      return pageOf(mine.map(copy), page);
    },
    async completeLesson(input) {
      const existing = items.get(key(input.courseId, input.learnerId));
      if (existing?.status !== 'active' || existing.completedLessonIds.length !== input.seenCount || !reports.allows(existing, input.report)) return 'changed';
      reports.apply(input.courseId, input.report);
      items.set(key(input.courseId, input.learnerId), {
        ...reports.marked(existing, input.report),
        completedLessonIds: [...existing.completedLessonIds, input.lessonId],
        progress: input.progress,
        lastActivity: input.at,
        ...(input.completedAt ? { completedAt: input.completedAt } : {}),
      });
      days.set(input.learnerId, (days.get(input.learnerId) ?? new Set()).add(input.day));
      if (input.completedAt) move(input.creatorId, { completions: 1 });
      return 'completed';
    },
    async reachLesson({ courseId, learnerId, report }) {
      const existing = items.get(key(courseId, learnerId));
      if (existing?.status !== 'active' || !reports.allows(existing, report)) return 'changed';
      reports.apply(courseId, report);
      items.set(key(courseId, learnerId), reports.marked(existing, report));
      return 'reached';
    },
    async activityDays(learnerId, fromDay) {
      return [...(days.get(learnerId) ?? [])].filter((d) => d >= fromDay).sort();
    },
  });
  return Object.assign(repo, {
    reports,
    items,
    stats: (creatorId: string) => stats.get(creatorId) ?? { students: 0, completions: 0 },
    days: (learnerId: string) => [...(days.get(learnerId) ?? [])].sort(),
    /** Activity a learner had before the test (a streak to continue). */
    addDays: (learnerId: string, ...list: string[]) => list.forEach((d) => days.set(learnerId, (days.get(learnerId) ?? new Set()).add(d))),
  });
};

/** Courses as the enrolment use cases read them: whole, or as the outline (no lesson bodies). */
export const memoryCourseReader = (courses: StoredCourse[] = []) => {
  const byId = new Map(courses.map((c) => [c.id, copy(c)]));
  const reader: Pick<CourseRepository, 'getCourse' | 'getOutline' | 'getLessons' | 'getLesson'> = {
    async getCourse(courseId) {
      const c = byId.get(courseId);
      return c && copy(c);
    },
    async getOutline(courseId) {
      const c = byId.get(courseId);
      if (!c) return undefined;
      const { lessons, ...course } = copy(c);
      return { ...course, lessons: lessons.map(({ id, title, kind, position, createdAt, release }) => ({ id, title, kind, position, createdAt, release })) };
    },
    async getLessons(courseId) {
      return copy(byId.get(courseId)?.lessons ?? []);
    },
    async getLesson(courseId, lessonId) {
      const lesson = byId.get(courseId)?.lessons.find((l) => l.id === lessonId);
      return lesson && copy(lesson);
    },
  };
  return Object.assign(reader, { put: (course: StoredCourse) => byId.set(course.id, copy(course)) });
};

/** Mail kept in memory. */
export const memoryMailer = () => {
  const sent: Parameters<Mailer['send']>[0][] = [];
  const mailer = withHooks<Mailer>({
    async send(message) {
      sent.push(message);
    },
  });
  return Object.assign(mailer, { sent });
};

/**
 * Makes each send of `mailer` take `ms` of real time, so sends made side by side overlap: answers the most that were in
 * flight at once so far (a sender that should send a few at a time, and one that should not send one by one).
 */
export const sendsInFlight = (mailer: ReturnType<typeof memoryMailer>, ms: number): (() => number) => {
  let inFlight = 0;
  let most = 0;
  mailer.before('send', async () => {
    most = Math.max(most, ++inFlight);
    await new Promise((resolve) => setTimeout(resolve, ms));
    inFlight--;
  });
  return () => most;
};

/** The mail queue kept in memory, oldest first, with the data layer's take-once condition. */
/** The mail queue in memory; `write` puts an email in as the transaction of what it announces does. */
export const memoryMailQueue = () => {
  const waiting: QueuedItem[] = [];
  const write = async (mail: QueuedItem) => {
    waiting.push(copy(mail));
    waiting.sort((a, b) => a.dueAt.localeCompare(b.dueAt) || a.id.localeCompare(b.id));
  };
  const at = (mail: QueuedItem) => waiting.findIndex((m) => m.id === mail.id && m.dueAt === mail.dueAt);
  const queue = withHooks<MailQueue>({
    async due(now, limit) {
      return waiting.filter((m) => m.dueAt <= now).slice(0, limit).map(copy);
    },
    async move(from, to) {
      const i = at(from);
      if (i < 0) return false;
      waiting.splice(i, 1);
      await write(to);
      return true;
    },
    async remove(mail) {
      const i = at(mail);
      if (i >= 0) waiting.splice(i, 1);
    },
  });
  return Object.assign(queue, { queued: waiting, write });
};
