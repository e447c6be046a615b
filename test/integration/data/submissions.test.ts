import { beforeAll, describe, expect, it } from 'vitest';
import type { StoredSubmission } from '#core/assignments/ports.ts';
import { backfillCourseSubmissionsIndex, dynamoCourseSubmissionRemoval, dynamoSubmissions, dynamoUnnamedUploads, submissionKeys } from '#data/submissions.ts';
import { queryAll } from '#data/table.ts';
import { useLocalCloudEnv } from '../support.ts';
import { putRaw, rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const at = (minute: number) => new Date(Date.UTC(2026, 10, 1, 12, minute)).toISOString();

const submission = (courseId: string, over: Partial<StoredSubmission> = {}): StoredSubmission => ({
  id: unique('submission'),
  courseId,
  lessonId: 'lesson-1',
  lessonTitle: 'Your first bowl',
  creatorId: 'creator-1',
  learnerId: unique('learner'),
  learnerEmail: 'ann@example.com',
  text: 'Here is my bowl.',
  fileIds: [],
  files: [],
  status: 'submitted',
  submittedAt: at(0),
  feedback: null,
  gradedAt: null,
  supersededBy: null,
  ...over,
});

describe('submissions (DynamoDB Local)', () => {
  it('keeps a course’s queue per status, oldest first, paged; a grade moves it; a resubmission replaces the one that needs revision', async () => {
    const submissions = dynamoSubmissions();
    const courseId = unique('course');
    const first = submission(courseId);
    const second = submission(courseId, { submittedAt: at(5) });
    expect(await submissions.submit({ submission: first, previous: undefined })).toBe(true);
    expect(await submissions.submit({ submission: second, previous: undefined })).toBe(true);
    // The same learner's second first submission of the lesson is refused (the pointer exists).
    expect(await submissions.submit({ submission: submission(courseId, { learnerId: first.learnerId }), previous: undefined })).toBe(false);
    expect(await submissions.latest(courseId, 'lesson-1', first.learnerId)).toEqual(first);
    expect(await submissions.latest(courseId, 'lesson-1', 'nobody')).toBeUndefined();

    const page1 = await submissions.pageByCourse(courseId, 'submitted', { limit: 1 });
    expect(page1.items.map((s) => s.id)).toEqual([first.id]);
    const page2 = await submissions.pageByCourse(courseId, 'submitted', { cursor: page1.nextCursor!, limit: 1 });
    expect(page2.items.map((s) => s.id)).toEqual([second.id]);

    expect(await submissions.grade({ submission: first, status: 'needs_revision', feedback: 'Thinner walls.', gradedAt: at(10), mail: undefined })).toBe(true);
    // Graded already: a second grade is refused.
    expect(await submissions.grade({ submission: first, status: 'passed', feedback: 'x', gradedAt: at(11), mail: undefined })).toBe(false);
    expect((await submissions.pageByCourse(courseId, 'needs_revision', { limit: 10 })).items.map((s) => [s.id, s.feedback])).toEqual([[first.id, 'Thinner walls.']]);

    const again = submission(courseId, { learnerId: first.learnerId, submittedAt: at(20), text: 'Thinner now.' });
    expect(await submissions.submit({ submission: again, previous: first })).toBe(true);
    expect((await submissions.get(first.id))?.supersededBy).toBe(again.id);
    expect((await submissions.pageByCourse(courseId, 'needs_revision', { limit: 10 })).items).toEqual([]);
    expect((await submissions.latest(courseId, 'lesson-1', first.learnerId))?.text).toBe('Thinner now.');
    // A stale resubmission (pointing at the superseded one) is refused.
    expect(await submissions.submit({ submission: submission(courseId, { learnerId: first.learnerId }), previous: first })).toBe(false);
    expect(await submissions.get('missing')).toBeUndefined();
  });

  it('keeps each learner’s uploads in their own partition (another learner’s id finds nothing) and counts what waits for review', async () => {
    const submissions = dynamoSubmissions();
    const courseId = unique('course');
    const learnerId = unique('learner');
    const file = { id: unique('file'), name: 'Bowl.png', contentType: 'image/png', size: 1234, courseId, lessonId: 'lesson-1', learnerId, createdAt: at(0) };
    await submissions.putFile(file, { dueAt: '2099-01-01T00:00:00.000Z', expiresAt: 4070908800 });
    expect(await submissions.getFiles(courseId, 'lesson-1', learnerId, [file.id, file.id, 'missing'])).toEqual([file]);
    expect(await submissions.getFiles(courseId, 'lesson-1', 'someone-else', [file.id])).toEqual([]);
    expect(await submissions.getFiles(courseId, 'lesson-2', learnerId, [file.id])).toEqual([]);
    expect(await submissions.getFiles(courseId, 'lesson-1', learnerId, [])).toEqual([]);

    // A submission with the file: it reads back with it; the learner's pending count moves with submit and grade.
    const withFile = submission(courseId, { learnerId, fileIds: [file.id], files: [{ id: file.id, name: file.name, contentType: file.contentType, size: file.size }] });
    const other = submission(courseId, { lessonId: 'lesson-2', learnerId });
    expect(await submissions.submit({ submission: withFile, previous: undefined })).toBe(true);
    expect(await submissions.submit({ submission: other, previous: undefined })).toBe(true);
    expect((await submissions.get(withFile.id))?.files).toEqual(withFile.files);
    const key = `${courseId}#${learnerId}`;
    expect(await submissions.pendingCounts([{ courseId, learnerId }, { courseId, learnerId: 'nobody' }])).toEqual(new Map([[key, 2]]));
    expect(await submissions.grade({ submission: withFile, status: 'passed', feedback: '', gradedAt: at(3), mail: undefined })).toBe(true);
    expect(await submissions.pendingCounts([{ courseId, learnerId }])).toEqual(new Map([[key, 1]]));
    expect(await submissions.pendingCounts([])).toEqual(new Map());
  });

  it('an upload is due for the sweep until a submission names it; the sweep claims only an unnamed one, and a claimed one can no longer be named', async () => {
    const submissions = dynamoSubmissions();
    const unnamed = dynamoUnnamedUploads();
    const courseId = unique('course');
    const learnerId = unique('learner');
    // Due in 2099 (read as of then), so no sweep run elsewhere in the suite, on the real clock, takes these.
    const dueAt = `2099-01-01T00:00:${String(Math.floor(Math.random() * 60)).padStart(2, '0')}.000Z`;
    const file = (name: string) => ({ id: unique('file'), name, contentType: 'application/pdf', size: 10, courseId, lessonId: 'lesson-1', learnerId, createdAt: at(0) });
    const named = file('named.pdf');
    const orphan = file('orphan.pdf');
    const raced = file('raced.pdf');
    for (const f of [named, orphan, raced]) await submissions.putFile(f, { dueAt, expiresAt: 4070908800 });
    expect(await rawItem(submissionKeys.file(courseId, 'lesson-1', learnerId, orphan.id))).toMatchObject({ dueAt, expiresAt: 4070908800, gsi3pk: 'SUBMISSIONFILES#DUE' });

    expect(await submissions.submit({ submission: submission(courseId, { learnerId, fileIds: [named.id] }), previous: undefined })).toBe(true);
    const namedItem = await rawItem(submissionKeys.file(courseId, 'lesson-1', learnerId, named.id));
    expect(namedItem).toBeDefined();
    for (const gone of ['dueAt', 'expiresAt', 'gsi3pk', 'gsi3sk']) expect(namedItem).not.toHaveProperty(gone);

    const due = async () => {
      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await unnamed.due('2099-01-01T00:01:00.000Z', 2, cursor);
        ids.push(...page.items.filter((f) => f.courseId === courseId).map((f) => f.id));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return ids.sort();
    };
    expect(await due()).toEqual([orphan.id, raced.id].sort());
    expect(await unnamed.due('2098-12-31T23:59:59.000Z', 100, undefined).then((p) => p.items.filter((f) => f.courseId === courseId))).toEqual([]);

    // Named already: not claimed. Unnamed: claimed (twice is fine), and then a submission naming it fails, writing nothing.
    expect(await unnamed.claim(named)).toBe(false);
    expect(await unnamed.claim(raced)).toBe(true);
    expect(await unnamed.claim(raced)).toBe(true);
    expect(await submissions.getFiles(courseId, 'lesson-1', learnerId, [raced.id])).toEqual([]);
    const late = submission(courseId, { learnerId, lessonId: 'lesson-1', fileIds: [raced.id] });
    expect(await submissions.submit({ submission: late, previous: undefined })).toBe(false);
    expect(await submissions.get(late.id)).toBeUndefined();

    await unnamed.remove(raced);
    await unnamed.remove(raced);
    // Not claimed: remove leaves it.
    await unnamed.remove(orphan);
    expect(await rawItem(submissionKeys.file(courseId, 'lesson-1', learnerId, raced.id))).toBeUndefined();
    expect(await due()).toEqual([orphan.id]);
    expect(await rawItem(submissionKeys.file(courseId, 'lesson-1', learnerId, named.id))).toBeDefined();
  });

  it('a deleted course’s submissions, every one (superseded too), oldest first; a learner’s uploads and records in the course removed', async () => {
    const submissions = dynamoSubmissions();
    const removal = dynamoCourseSubmissionRemoval();
    const courseId = unique('course');
    const learnerId = unique('learner');
    const upload = { id: unique('file'), name: 'a.pdf', contentType: 'application/pdf', size: 10, courseId, lessonId: 'lesson-1', learnerId, createdAt: at(0) };
    await submissions.putFile(upload, { dueAt: '2099-01-01T00:00:00.000Z', expiresAt: 4070908800 });
    const first = submission(courseId, { learnerId, fileIds: [upload.id], submittedAt: at(1) });
    expect(await submissions.submit({ submission: first, previous: undefined })).toBe(true);
    expect(await submissions.grade({ submission: first, status: 'needs_revision', feedback: 'More.', gradedAt: at(2), mail: undefined })).toBe(true);
    const second = submission(courseId, { learnerId, submittedAt: at(3) });
    expect(await submissions.submit({ submission: { ...second, status: 'submitted' }, previous: { ...first, status: 'needs_revision' } })).toBe(true);
    const other = submission(unique('course'), { submittedAt: at(4) });
    expect(await submissions.submit({ submission: other, previous: undefined })).toBe(true);

    expect((await removal.page(courseId, 10)).map((s) => s.id)).toEqual([first.id, second.id]);
    expect((await removal.page(courseId, 1)).map((s) => s.id)).toEqual([first.id]);
    expect((await removal.learnerUploads(courseId, learnerId)).map((f) => f.id)).toEqual([upload.id]);

    await removal.removeLearnerRecords(courseId, learnerId);
    expect(await removal.learnerUploads(courseId, learnerId)).toEqual([]);
    expect(await submissions.latest(courseId, 'lesson-1', learnerId)).toBeUndefined();
    expect(await submissions.pendingCounts([{ courseId, learnerId }])).toEqual(new Map());
    for (const s of [first, second]) await removal.remove(s.id);
    await removal.remove(first.id);
    expect(await removal.page(courseId, 10)).toEqual([]);
    expect(await submissions.get(other.id)).toBeDefined();
  });

  it("gives submissions from before the course's index its keys, once, so a superseded one is found too", async () => {
    const courseId = unique('old-course');
    const old = submission(courseId, { submittedAt: at(1) });
    await putRaw({ ...submissionKeys.submission(old.id), type: 'Submission', ...old, supersededBy: 'newer' });
    const { gsi2pk } = submissionKeys.ofCourse(old);
    const found = () => queryAll({ IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': gsi2pk } });
    expect(await found()).toEqual([]);
    expect(await backfillCourseSubmissionsIndex()).toBeGreaterThanOrEqual(1);
    expect((await found()).map((item) => item['id'])).toEqual([old.id]);
    expect(await rawItem(submissionKeys.submission(old.id))).toMatchObject({ gsi2sk: `${old.learnerId}#${at(1)}#${old.id}` });
    expect(await backfillCourseSubmissionsIndex()).toBe(0);
  });
});
