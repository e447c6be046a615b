import { describe, expect, it } from 'vitest';
import { courseChangedWork, courseChangeRun, type CourseChangeStore, type TitleCopy } from '#core/courses/changes.ts';
import type { Page } from '#core/jobs/slices.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';

/** The store of the 'course-changed' job in memory, with the conditions of the DynamoDB one (pages in key order). */
const memoryStore = (opts: { enrollments: number; licenses: number; pageSize?: number }) => {
  const course: { titleChangedAt?: string; exists: boolean; creatorId: string } = { exists: true, creatorId: 'ann' };
  const copies = (n: number, prefix: string) => new Map(Array.from({ length: n }, (_, i) => [`${prefix}${String(i).padStart(6, '0')}`, { title: 'Old', at: '2026-01-01' }]));
  const enrollments = copies(opts.enrollments, 'l');
  const licenses = copies(opts.licenses, 'lic');
  const other = new Set(['LESSON#1', 'LESSON#2']);
  const counters = { students: opts.enrollments };
  let writes = 0;
  const page = (items: Map<string, { title: string; at: string }>, cursor: string | undefined): Page<TitleCopy> => {
    const ids = [...items.keys()].sort();
    // A cursor of another listing is refused, as DynamoDB refuses a foreign starting key.
    if (cursor && !items.has(cursor)) throw new Error(`The provided starting key is invalid: ${cursor}`);
    const start = cursor ? ids.indexOf(cursor) + 1 : 0;
    const slice = ids.slice(start, start + (opts.pageSize ?? 50));
    const last = slice.at(-1);
    return { items: slice.map((id) => ({ id, courseTitleAt: items.get(id)!.at })), nextCursor: start + slice.length < ids.length ? last : null };
  };
  const retitle = (items: Map<string, { title: string; at: string }>, id: string, title: string, version: string) => {
    const copy = items.get(id);
    if (!copy || copy.at >= version) return false;
    items.set(id, { title, at: version });
    writes++;
    return true;
  };
  const store: CourseChangeStore = {
    course: async () => (course.exists ? { titleChangedAt: course.titleChangedAt } : undefined),
    enrollmentTitles: async (_courseId, cursor) => page(enrollments, cursor),
    retitleEnrollment: async (_courseId, id, title, version) => retitle(enrollments, id, title, version),
    licenseTitles: async (_courseId, cursor) => page(licenses, cursor),
    retitleLicense: async (id, title, version) => retitle(licenses, id, title, version),
    removeDeletedCourseBatch: async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (course.exists) return 'present';
      const batch = [...enrollments.keys()].slice(0, 90);
      for (const id of batch) enrollments.delete(id);
      counters.students -= batch.length;
      writes += batch.length;
      const rest = batch.length === 0 ? [...other] : [];
      for (const key of rest) other.delete(key);
      return batch.length === 0 && rest.length === 0 ? 'done' : { enrollments: batch.length, other: rest.length };
    },
  };
  return { store, course, enrollments, licenses, other, counters, writes: () => writes };
};

const renamedAt = (m: ReturnType<typeof memoryStore>, title: string, version: string) => {
  m.course.titleChangedAt = version;
  return { change: 'renamed' as const, courseId: 'c1', title, version };
};

describe("the 'course-changed' job", () => {
  it('carries a new title to every enrolment, then every licence, in many slices, each copy written once', async () => {
    const m = memoryStore({ enrollments: 2_000, licenses: 120 });
    const input = renamedAt(m, 'New', '2026-02-01');
    const slow = { ...m.store, retitleEnrollment: async (...args: Parameters<CourseChangeStore['retitleEnrollment']>) => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      return m.store.retitleEnrollment(...args);
    } };
    const result = await runToEnd('course-changed', () => courseChangedWork(slow), { input, sliceMs: 5, run: courseChangeRun(input) });
    expect(result.slices).toBeGreaterThan(3);
    expect([...m.enrollments.values()].every((c) => c.title === 'New')).toBe(true);
    expect([...m.licenses.values()].every((c) => c.title === 'New')).toBe(true);
    expect(m.writes()).toBe(2_120);
    expect(result.counts).toMatchObject({ retitled: 2_000, licenses: 120 });
  });

  it('goes from the enrolments to the licences within one slice from the licences\' start', async () => {
    const m = memoryStore({ enrollments: 120, licenses: 70, pageSize: 50 });
    const input = renamedAt(m, 'New', '2026-02-01');
    // A slice that starts on a later page of the enrolments and finishes them: the licences from their first page.
    const outcome = await courseChangedWork(m.store)({ job: 'course-changed', run: 'r', lane: 'main', seq: 3, cursor: 'El000049', input }, () => false);
    expect(outcome.cursor).toBeUndefined();
    expect([...m.licenses.values()].every((c) => c.title === 'New')).toBe(true);
    expect([...m.enrollments.entries()].filter(([, c]) => c.title === 'New').map(([id]) => id)[0]).toBe('l000050');
  });

  it('stops when the course was renamed again or deleted since: the newer run carries on', async () => {
    const m = memoryStore({ enrollments: 30, licenses: 0 });
    const older = renamedAt(m, 'Older', '2026-02-01');
    renamedAt(m, 'Newer', '2026-03-01');
    const result = await runToEnd('course-changed', () => courseChangedWork(m.store), { input: older });
    expect(result.counts).toMatchObject({ superseded: 1, retitled: 0 });
    expect(m.writes()).toBe(0);
  });

  it('removes a deleted course\'s partition in batches, then ends; a course still there is left alone', async () => {
    const m = memoryStore({ enrollments: 1_000, licenses: 0 });
    const input = { change: 'deleted' as const, courseId: 'c1', creatorId: 'ann', version: '2026-02-01' };
    expect((await runToEnd('course-changed', () => courseChangedWork(m.store), { input })).counts).toMatchObject({ removed: 0, superseded: 1 });
    m.course.exists = false;
    const result = await runToEnd('course-changed', () => courseChangedWork(m.store), { input, sliceMs: 3 });
    expect(result.slices).toBeGreaterThan(2);
    expect(result.counts).toMatchObject({ removed: 1_000, removedOther: 2 });
    expect(m.enrollments.size + m.other.size).toBe(0);
    expect(m.counters.students).toBe(0);
  });
});
