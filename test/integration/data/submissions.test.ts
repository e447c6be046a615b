import { beforeAll, describe, expect, it } from 'vitest';
import type { StoredSubmission } from '#core/assignments/ports.ts';
import { backfillSubmitterIndex, dynamoSubmissions, submissionKeys } from '#data/submissions.ts';
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
    await submissions.putFile(file);
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

  it("gives submissions from before the learner's index its keys, once, so a superseded one is found too", async () => {
    const courseId = unique('old-course');
    const old = submission(courseId, { submittedAt: at(1) });
    await putRaw({ ...submissionKeys.submission(old.id), type: 'Submission', ...old, supersededBy: 'newer' });
    const { gsi2pk } = submissionKeys.submitter(old);
    const found = () => queryAll({ IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': gsi2pk } });
    expect(await found()).toEqual([]);
    expect(await backfillSubmitterIndex()).toBeGreaterThanOrEqual(1);
    expect((await found()).map((item) => item['id'])).toEqual([old.id]);
    expect(await rawItem(submissionKeys.submission(old.id))).toMatchObject({ gsi2sk: `${at(1)}#${old.id}` });
    expect(await backfillSubmitterIndex()).toBe(0);
  });
});
