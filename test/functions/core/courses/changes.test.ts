import { describe, expect, it } from 'vitest';
import { courseChangedWork, courseChangeRun, type CourseChangeStore, FILE_BATCH, type TitleCopy } from '#core/courses/changes.ts';
import type { StoredFile } from '#core/files/ports.ts';
import type { Page } from '#core/jobs/slices.ts';
import { memoryFiles, memoryFileStore } from '#test/functions/fakes/files.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { noDripReplan } from '#test/functions/fakes/drip.ts';

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
  // The course's files: their items and the bucket (objects, and an upload in progress on each lesson).
  const files = { files: memoryFiles(), store: memoryFileStore() };
  return { store, files, course, enrollments, licenses, other, counters, writes: () => writes };
};

/** `n` files of lesson `lessonId` of course c1, each with its object in the bucket; every tenth still uploading. */
const addFiles = async (m: ReturnType<typeof memoryStore>, lessonId: string, n: number) => {
  for (let i = 0; i < n; i++) {
    const s3Key = `courses/c1/${lessonId}/f${i}`;
    const uploading = i % 10 === 0;
    const uploadId = uploading ? await m.files.store.startMultipart(s3Key, 'application/pdf') : '';
    if (!uploading) m.files.store.putObject(s3Key, 10, 'application/pdf');
    const file: StoredFile = {
      id: `${lessonId}-f${i}`, courseId: 'c1', creatorId: 'ann', lessonId, kind: 'attachment', name: `f${i}.pdf`,
      contentType: 'application/pdf', size: 10, status: uploading ? 'uploading' : 'ready', createdAt: '2026-01-01T00:00:00.000Z', s3Key, uploadId,
    };
    await m.files.files.create(file);
  }
};

const work = (m: ReturnType<typeof memoryStore>, store: CourseChangeStore = m.store) => () => courseChangedWork(store, m.files, noDripReplan());

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
    const result = await runToEnd('course-changed', work(m, slow), { input, sliceMs: 5, run: courseChangeRun(input) });
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
    const outcome = await work(m)()({ job: 'course-changed', run: 'r', lane: 'main', seq: 3, cursor: 'El000049', input }, () => false);
    expect(outcome.cursor).toBeUndefined();
    expect([...m.licenses.values()].every((c) => c.title === 'New')).toBe(true);
    expect([...m.enrollments.entries()].filter(([, c]) => c.title === 'New').map(([id]) => id)[0]).toBe('l000050');
  });

  it('stops when the course was renamed again or deleted since: the newer run carries on', async () => {
    const m = memoryStore({ enrollments: 30, licenses: 0 });
    const older = renamedAt(m, 'Older', '2026-02-01');
    renamedAt(m, 'Newer', '2026-03-01');
    const result = await runToEnd('course-changed', work(m), { input: older });
    expect(result.counts).toMatchObject({ superseded: 1, retitled: 0 });
    expect(m.writes()).toBe(0);
  });

  it('removes a deleted course\'s partition in batches, then ends; a course still there is left alone', async () => {
    const m = memoryStore({ enrollments: 1_000, licenses: 0 });
    const input = { change: 'deleted' as const, courseId: 'c1', creatorId: 'ann', version: '2026-02-01' };
    expect((await runToEnd('course-changed', work(m), { input })).counts).toMatchObject({ removed: 0, superseded: 1 });
    m.course.exists = false;
    const result = await runToEnd('course-changed', work(m), { input, sliceMs: 3 });
    expect(result.slices).toBeGreaterThan(2);
    expect(result.counts).toMatchObject({ removed: 1_000, removedOther: 2 });
    expect(m.enrollments.size + m.other.size).toBe(0);
    expect(m.counters.students).toBe(0);
  });

  it('removes a deleted course\'s files first (uploads aborted, objects and items deleted), a batch at a time, then its partition', async () => {
    const m = memoryStore({ enrollments: 200, licenses: 0 });
    await addFiles(m, 'LESSON1', FILE_BATCH * 2 + 30);
    await addFiles(m, 'LESSON2', 20);
    const input = { change: 'deleted' as const, courseId: 'c1', creatorId: 'ann', version: '2026-02-01' };
    // The course still there (its request failed before the delete): not one file goes.
    expect((await runToEnd('course-changed', work(m), { input })).counts).toMatchObject({ files: 0, superseded: 1 });
    expect(m.files.files.all()).toHaveLength(FILE_BATCH * 2 + 50);
    m.course.exists = false;
    const slowFiles = { ...m.files, store: { ...m.files.store, deleteObjects: async (keys: readonly string[]) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return m.files.store.deleteObjects(keys);
    } } };
    const result = await runToEnd('course-changed', () => courseChangedWork(m.store, slowFiles, noDripReplan()), { input, sliceMs: 1 });
    expect(result.slices).toBeGreaterThan(3);
    expect(result.counts).toMatchObject({ files: FILE_BATCH * 2 + 50, removed: 200, removedOther: 2 });
    expect(m.files.files.all()).toEqual([]);
    expect(m.files.store.objectKeys()).toEqual([]);
    expect(m.files.store.openUploads()).toEqual([]);
  });

  it('removes a deleted lesson\'s files, the other lessons\' kept; again after a kill, nothing twice and nothing left', async () => {
    const m = memoryStore({ enrollments: 0, licenses: 0 });
    await addFiles(m, 'LESSON1', 21);
    await addFiles(m, 'LESSON2', 5);
    const input = { change: 'lesson-deleted' as const, courseId: 'c1', lessonId: 'LESSON1', version: '2026-02-01' };
    // A slice killed after the objects went and before the items did: delivered again, it removes what is left.
    const dying = { ...m.files, files: { ...m.files.files, delete: async () => Promise.reject(new Error('killed')) } };
    await expect(courseChangedWork(m.store, dying, noDripReplan())({ job: 'course-changed', run: 'r', lane: 'main', seq: 0, input }, () => false)).rejects.toThrow('killed');
    expect(m.files.files.all()).toHaveLength(26);
    const result = await runToEnd('course-changed', work(m), { input });
    expect(result.counts).toMatchObject({ files: 21 });
    expect(m.files.files.all().map((f) => f.lessonId)).toEqual(Array(5).fill('LESSON2'));
    expect(m.files.store.objectKeys().every((key) => key.startsWith('courses/c1/LESSON2/'))).toBe(true);
    expect(m.files.store.openUploads()).toHaveLength(1);
  });
});
