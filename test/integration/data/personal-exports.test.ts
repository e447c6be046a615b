import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { dynamoPersonalExports, dynamoPersonalRecords } from '#data/personal-exports.ts';
import { submissionKeys } from '#data/submissions.ts';
import { documentClient, tableName } from '#data/table.ts';
import { useLocalCloudEnv } from '../support.ts';
import { unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const mail = (exportId: string) => ({ id: `personal-export:${exportId}`, to: 'ann@example.com', subject: 's', text: 't', html: 'h', queuedAt: '2026-11-29T10:00:00.000Z', dueAt: '2026-11-29T10:00:00.000Z', tries: 0 });

const progress = (version: number, seq = 0) => ({
  version,
  seq,
  uploadId: 'upload-1',
  startedAt: '2026-11-29T10:00:00.000Z',
  parts: Array.from({ length: version - 1 }, (_, i) => ({ n: i + 1, etag: `"e${i + 1}"` })),
  zip: { offset: 100 * version, entries: [['README.txt', 123, 45, 0] as const], open: { name: 'account.json', crc: 7, size: 9, offset: 80 } },
  at: { step: 1, cursor: 'abc', count: 3 },
  courseIds: ['c1'],
  ownCourseIds: [],
  records: 3,
  files: 0,
});

describe('personal data exports (DynamoDB Local)', () => {
  it("saves a run's progress on its pending export in order: a save from a stale version is refused, and making it ready removes it", async () => {
    const exports = dynamoPersonalExports();
    const userId = unique('user');
    const exportId = unique('export');
    const at = '2026-11-29T10:00:00.000Z';
    await exports.request({ userId, exportId, requestedAt: at, staleBefore: '2026-11-28T10:00:00.000Z' });
    expect(await exports.saveProgress({ userId, exportId, progress: progress(1) })).toBe(true);
    // A second first save (another delivery that began its own upload) loses.
    expect(await exports.saveProgress({ userId, exportId, progress: { ...progress(1), uploadId: 'upload-2' } })).toBe(false);
    expect(await exports.saveProgress({ userId, exportId, progress: progress(2, 1) })).toBe(true);
    expect(await exports.saveProgress({ userId, exportId, progress: progress(2, 1) })).toBe(false);
    expect(await exports.saveProgress({ userId, exportId, progress: progress(4, 1) })).toBe(false);
    expect((await exports.get(userId, exportId))?.progress).toEqual(progress(2, 1));
    expect(await exports.markReady({ userId, exportId, readyAt: at, linkExpiresAt: '2026-11-30T10:00:00.000Z', mail: mail(exportId) })).toBe(true);
    const ready = await exports.get(userId, exportId);
    expect(ready).toMatchObject({ status: 'ready' });
    expect(ready?.progress).toBeUndefined();
    // Nothing is saved on a ready export.
    expect(await exports.saveProgress({ userId, exportId, progress: progress(3, 2) })).toBe(false);
  });

  it('keeps one pending export per person, makes it ready once with its email, then lets a new one start', async () => {
    const exports = dynamoPersonalExports();
    const userId = unique('user');
    const first = unique('export');
    const at = '2026-11-29T10:00:00.000Z';
    expect(await exports.request({ userId, exportId: first, requestedAt: at, staleBefore: '2026-11-28T10:00:00.000Z' })).toBe(first);
    expect(await exports.request({ userId, exportId: unique('export'), requestedAt: at, staleBefore: '2026-11-28T10:00:00.000Z' })).toBe(first);
    expect(await exports.get(userId, first)).toMatchObject({ status: 'pending', requestedAt: at });
    expect(await exports.get(unique('other'), first)).toBeUndefined();

    const ready = { userId, exportId: first, readyAt: at, linkExpiresAt: '2026-11-30T10:00:00.000Z', mail: mail(first) };
    expect(await exports.markReady(ready)).toBe(true);
    expect(await exports.markReady(ready)).toBe(false);
    expect(await exports.get(userId, first)).toMatchObject({ status: 'ready', linkExpiresAt: '2026-11-30T10:00:00.000Z' });

    const second = unique('export');
    expect(await exports.request({ userId, exportId: second, requestedAt: at, staleBefore: '2026-11-28T10:00:00.000Z' })).toBe(second);
    // A pending export older than the stale mark is replaced by a new request; the old one still becomes ready.
    const third = unique('export');
    expect(await exports.request({ userId, exportId: third, requestedAt: '2026-12-01T10:00:00.000Z', staleBefore: '2026-11-30T10:00:00.000Z' })).toBe(third);
    expect(await exports.markReady({ ...ready, exportId: second, mail: mail(second) })).toBe(true);
    expect(await exports.request({ userId, exportId: unique('export'), requestedAt: '2026-12-01T10:00:00.000Z', staleBefore: '2026-11-30T10:00:00.000Z' })).toBe(third);
  });

  it("reads a person's records by key and index a page at a time, without the table's keys, and nobody else's", async () => {
    const records = dynamoPersonalRecords();
    const learnerId = unique('learner');
    const courseId = unique('course');
    const put = (Item: Record<string, unknown>) => documentClient().send(new PutCommand({ TableName: tableName(), Item }));
    await put({ pk: `USER#${learnerId}`, sk: 'PROFILE', id: learnerId, email: 'ann@example.com', role: 'learner', createdAt: '2026-11-01T10:00:00.000Z', data: new Uint8Array([1, 2]) });
    for (let i = 0; i < 205; i++) await put({ pk: `USER#${learnerId}`, sk: `CREDITTX#${String(i).padStart(3, '0')}`, n: i });
    await put({ pk: `COURSE#${courseId}`, sk: `ENROLL#${learnerId}`, courseId, learnerId, progress: 50, gsi2pk: `LEARNER#${learnerId}#COURSES`, gsi2sk: courseId });
    await put({ pk: `COURSE#${courseId}`, sk: `QUIZ#${learnerId}#l1`, learnerId, bestScore: 80 });
    await put({ pk: `COURSE#${courseId}`, sk: `QUIZ#${learnerId}x#l1`, learnerId: `${learnerId}x`, bestScore: 10 });

    expect(await records.person(learnerId)).toEqual({ role: 'learner', email: 'ann@example.com' });
    expect(await records.person(unique('gone'))).toBeUndefined();
    const first = await records.page({ kind: 'account', userId: learnerId }, undefined);
    expect(first.items).toHaveLength(200);
    expect(first.items[0]).not.toHaveProperty('pk');
    const rest = await records.page({ kind: 'account', userId: learnerId }, first.nextCursor ?? undefined);
    expect(rest.items.length).toBe(6);
    expect((await records.page({ kind: 'enrolments', learnerId }, undefined)).items).toEqual([{ courseId, learnerId, progress: 50 }]);
    expect((await records.page({ kind: 'quiz-attempts', courseId, learnerId }, undefined)).items).toEqual([{ learnerId, bestScore: 80 }]);
    for (const source of [{ kind: 'certificates', learnerId }, { kind: 'courses', creatorId: learnerId }, { kind: 'crm', creatorId: learnerId }, { kind: 'support-requests', creatorId: learnerId }] as const) {
      expect((await records.page(source, undefined)).items).toEqual([]);
    }
  });

  it("reads every submission of a learner's in a course (the superseded marked) and their uploads, and a course's discussions by their keys", async () => {
    const records = dynamoPersonalRecords();
    const learnerId = unique('learner');
    const courseId = unique('course');
    const put = (Item: Record<string, unknown>) => documentClient().send(new PutCommand({ TableName: tableName(), Item }));
    // As the submissions module writes them (the course's index, a learner's together): the first try of l1 replaced
    // by the second, one of l2; another learner's whose id starts with theirs, and theirs in another course.
    const submission = (course: string, learner: string, id: string, submittedAt: string, extra: Record<string, unknown>) =>
      put({ ...submissionKeys.submission(id), ...submissionKeys.ofCourse({ courseId: course, learnerId: learner, submittedAt, id }), type: 'Submission', id, courseId: course, learnerId: learner, submittedAt, ...extra });
    await submission(courseId, learnerId, `${courseId}-s1`, '2026-01-01', { lessonId: 'l1', text: 'First', status: 'needs_revision', supersededBy: `${courseId}-s2` });
    await submission(courseId, learnerId, `${courseId}-s2`, '2026-01-02', { lessonId: 'l1', text: 'Second', status: 'submitted', supersededBy: null });
    await submission(courseId, learnerId, `${courseId}-s3`, '2026-01-03', { lessonId: 'l2', text: 'Third', status: 'passed', supersededBy: null });
    await submission(courseId, `${learnerId}x`, `${courseId}-s9`, '2026-01-01', { lessonId: 'l1', text: 'Not hers', supersededBy: null });
    await submission(`${courseId}-other`, learnerId, `${courseId}-s8`, '2026-01-01', { lessonId: 'l1', text: 'Elsewhere', supersededBy: null });
    await put({ pk: `SUBMITTER#${courseId}#${learnerId}`, sk: 'FILE#l2#f1', id: 'f1', lessonId: 'l2', name: 'bowl.png', learnerId, courseId });
    await put({ pk: `SUBMITTER#${courseId}#${learnerId}`, sk: 'PENDING', pending: 1 });
    await put({ pk: `SUBMITTER#${courseId}#${learnerId}x`, sk: 'FILE#l2#f9', id: 'f9', lessonId: 'l2', name: 'not hers.png' });

    const common = { type: 'Submission', courseId, learnerId };
    expect((await records.page({ kind: 'submissions', courseId, learnerId }, undefined)).items).toEqual([
      { ...common, id: `${courseId}-s1`, submittedAt: '2026-01-01', lessonId: 'l1', text: 'First', status: 'needs_revision', supersededBy: `${courseId}-s2`, superseded: true },
      { ...common, id: `${courseId}-s2`, submittedAt: '2026-01-02', lessonId: 'l1', text: 'Second', status: 'submitted', supersededBy: null, superseded: false },
      { ...common, id: `${courseId}-s3`, submittedAt: '2026-01-03', lessonId: 'l2', text: 'Third', status: 'passed', supersededBy: null, superseded: false },
    ]);
    expect((await records.page({ kind: 'submission-files', courseId, learnerId }, undefined)).items).toEqual([{ id: 'f1', lessonId: 'l2', name: 'bowl.png', learnerId, courseId }]);

    // The lessons' ids alone; a lesson's threads; a thread's replies.
    await put({ pk: `COURSE#${courseId}`, sk: 'LESSON#l1', id: 'l1', title: 'Glazes', body: '<p>Long text</p>' });
    await put({ pk: `COURSE#${courseId}`, sk: 'FILE#l1#x', id: 'x' });
    await put({ pk: `COMMENT#${courseId}-t1`, sk: 'COMMENT', id: `${courseId}-t1`, authorId: learnerId, body: 'Why?', gsi1pk: `LESSON#${courseId}#l1#COMMENTS`, gsi1sk: `0#2026#${courseId}-t1` });
    await put({ pk: `COMMENT#${courseId}-r1`, sk: 'COMMENT', id: `${courseId}-r1`, authorId: 'cara', body: 'Because.', gsi1pk: `THREAD#${courseId}-t1`, gsi1sk: `2026#${courseId}-r1` });
    expect((await records.page({ kind: 'lessons', courseId }, undefined)).items).toEqual([{ id: 'l1' }]);
    expect((await records.page({ kind: 'lesson-threads', courseId, lessonId: 'l1' }, undefined)).items).toEqual([{ id: `${courseId}-t1`, authorId: learnerId, body: 'Why?' }]);
    expect((await records.page({ kind: 'thread-replies', threadId: `${courseId}-t1` }, undefined)).items).toEqual([{ id: `${courseId}-r1`, authorId: 'cara', body: 'Because.' }]);
  });
});
