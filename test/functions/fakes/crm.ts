import type { CreatorCounters, CrmEnrollment, CrmRepository, StoredNote, StoredTimelineEntry } from '#core/crm/ports.ts';

/** An enrolment in the fake, with its course's owner (what the real index partitions on). */
export type FakeEnrollment = CrmEnrollment & { creatorId: string };

/**
 * The CRM's store in memory: enrolments (newest first by enrolledAt, like gsi1), notes, timeline and counters. It
 * counts the reads of a page (`calls`) so tests can hold the page's cost.
 */
export const memoryCrm = (seed: { enrollments?: FakeEnrollment[]; courses?: Record<string, string>; counters?: Record<string, CreatorCounters> } = {}) => {
  const enrollments = [...(seed.enrollments ?? [])];
  const courses = { ...seed.courses };
  const notes = new Map<string, StoredNote>();
  const timelines = new Map<string, StoredTimelineEntry[]>();
  const calls = { learnersPage: 0, getNotes: 0 };
  /** Submissions waiting for review, by `<courseId>#<learnerId>` (the counter data/submissions.ts moves). */
  const pending = new Map<string, number>();
  const key = (creatorId: string, learnerId: string) => `${creatorId}/${learnerId}`;
  const strip = ({ creatorId: _c, ...e }: FakeEnrollment): CrmEnrollment => e;

  const repo: CrmRepository = {
    async learnersPage({ creatorId, courseId, cursor, limit }) {
      calls.learnersPage++;
      const mine = enrollments
        .filter((e) => e.creatorId === creatorId && (courseId === undefined || e.courseId === courseId))
        .sort((a, b) => b.enrolledAt.localeCompare(a.enrolledAt));
      const start = cursor ? Number(cursor) : 0;
      const page = mine.slice(start, start + limit).map(strip);
      return { items: page, ...(start + limit < mine.length ? { cursor: String(start + limit) } : {}) };
    },
    async learnerEnrollments(creatorId, learnerId) {
      return enrollments.filter((e) => e.creatorId === creatorId && e.learnerId === learnerId).map(strip);
    },
    async courseCreator(courseId) {
      return courses[courseId];
    },
    async getNote(creatorId, learnerId) {
      return notes.get(key(creatorId, learnerId));
    },
    async getNotes(creatorId, learnerIds) {
      calls.getNotes++;
      return new Map(learnerIds.flatMap((id) => (notes.has(key(creatorId, id)) ? [[id, notes.get(key(creatorId, id))!] as const] : [])));
    },
    async saveNote(creatorId, learnerId, note) {
      notes.set(key(creatorId, learnerId), note);
    },
    async addTimelineEntry(creatorId, learnerId, entry) {
      timelines.set(key(creatorId, learnerId), [...(timelines.get(key(creatorId, learnerId)) ?? []), entry]);
    },
    async timeline(creatorId, learnerId, limit) {
      return [...(timelines.get(key(creatorId, learnerId)) ?? [])].sort((a, b) => b.sentAt.localeCompare(a.sentAt)).slice(0, limit);
    },
    async pendingSubmissions(rows) {
      return new Map(rows.flatMap((r) => (pending.has(`${r.courseId}#${r.learnerId}`) ? [[`${r.courseId}#${r.learnerId}`, pending.get(`${r.courseId}#${r.learnerId}`)!] as const] : [])));
    },
    async counters(creatorId) {
      return seed.counters?.[creatorId] ?? { courses: 0, students: 0, completions: 0, certificates: 0 };
    },
  };
  return { ...repo, calls, notes, timelines, pending };
};
