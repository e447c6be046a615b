import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LearnerCertificateList } from '#contracts/certificates.ts';
import type { CrmLearnerDetails, CrmLearnerList } from '#contracts/courses.ts';
import type { FileUrlResponse } from '#contracts/files.ts';
import type { MySubmissionAnswer, SubmissionFileUpload, SubmissionList } from '#contracts/submissions.ts';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { submissionKeys } from '#data/submissions.ts';
import { work as issuerWork } from '#functions/jobs/certificate-issuer.ts';
import { work as discussionMailWork } from '#functions/jobs/discussion-mail.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { accountWithRole, api, dynamo, eventually, filesBucketHolds, outputs, useLocalCloudEnv } from './support.ts';

/**
 * Files in assignment submissions end to end (issue 35 point 2): the gateway, the handlers, DynamoDB Local and the S3
 * emulator. The browser's part is played with fetch: the bytes go straight to the presigned PUT, never through the API.
 */
type Account = Awaited<ReturnType<typeof accountWithRole>>;
let creator: Account;
let otherCreator: Account;
let ann: Account;
let leo: Account;

beforeAll(async () => {
  [creator, otherCreator, ann, leo] = await Promise.all([
    accountWithRole('creator', 'subfiles-creator'),
    accountWithRole('creator', 'subfiles-other'),
    accountWithRole('learner', 'subfiles-ann'),
    accountWithRole('learner', 'subfiles-leo'),
  ]);
});

/** A published course of the creator's: a text lesson, an assignment that takes files and one that takes text only; ann and leo enrolled. */
const course = async () => {
  const courseId = ((await api('POST', '/api/courses', { token: creator.token, body: { title: `Pottery ${Date.now()}` } })).body as { id: string }).id;
  const lesson = async (body: unknown) => {
    const created = await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body });
    expect(created.status).toBe(201);
    return (created.body as { id: string }).id;
  };
  const textLessonId = await lesson({ title: 'Read', kind: 'text', body: '<p>Clay.</p>' });
  const filesLessonId = await lesson({ title: 'Photograph your bowl', kind: 'assignment', assignment: { instructions: 'Upload a photo.', acceptsFiles: true } });
  const textOnlyId = await lesson({ title: 'Describe it', kind: 'assignment', assignment: { instructions: 'Write.', acceptsFiles: false } });
  expect((await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
  for (const learner of [ann, leo]) expect((await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: learner.email } })).status).toBe(201);
  return { courseId, textLessonId, filesLessonId, textOnlyId };
};

/** Starts an upload and PUTs the bytes to its presigned URL, as the browser does. */
const upload = async (learner: Account, courseId: string, lessonId: string, file: { name: string; contentType: string; bytes: Buffer }) => {
  const started = await api('POST', `/api/learner/courses/${courseId}/lessons/${lessonId}/submission-files`, {
    token: learner.token,
    body: { name: file.name, contentType: file.contentType, size: file.bytes.length },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const { file: stored, url } = started.body as SubmissionFileUpload;
  const put = await fetch(url, { method: 'PUT', body: file.bytes, headers: { 'content-type': file.contentType } });
  expect(put.status).toBe(200);
  return stored;
};

describe('files in submissions', () => {
  it('a learner uploads a file and hands it in; the creator and the learner download it as an attachment; anyone else gets 404', async () => {
    const { courseId, filesLessonId } = await course();
    const bytes = randomBytes(30_000);
    const photo = await upload(ann, courseId, filesLessonId, { name: 'My bowl.png', contentType: 'image/png', bytes });
    expect(photo).toEqual({ id: photo.id, name: 'My bowl.png', contentType: 'image/png', size: bytes.length });
    expect(await filesBucketHolds(`courses/${courseId}/${filesLessonId}/submissions/${ann.id}/${photo.id}`)).toBe(true);

    const path = `/api/learner/courses/${courseId}/lessons/${filesLessonId}/submissions`;
    // Leo knows the id but it is not his upload: refused, nothing handed in.
    const theft = await api('POST', path, { token: leo.token, body: { fileIds: [photo.id] } });
    expect(theft.status).toBe(400);
    expect(JSON.stringify(theft.body)).toContain('not one you uploaded');
    expect(((await api('GET', path, { token: leo.token })).body as MySubmissionAnswer).submission).toBeNull();

    const handedIn = await api('POST', path, { token: ann.token, body: { text: 'Here it is.', fileIds: [photo.id] } });
    expect(handedIn.status, JSON.stringify(handedIn.body)).toBe(201);
    const submissionId = (handedIn.body as { id: string }).id;
    expect(((await api('GET', path, { token: ann.token })).body as MySubmissionAnswer).submission?.files).toEqual([photo]);
    const queue = (await api('GET', `/api/courses/${courseId}/submissions`, { token: creator.token })).body as SubmissionList;
    expect(queue.items.map((s) => [s.id, s.files])).toEqual([[submissionId, [photo]]]);

    const fileUrl = `/api/submissions/${submissionId}/files/${photo.id}/url`;
    const link = await api('GET', fileUrl, { token: creator.token });
    expect(link.status).toBe(200);
    const download = await fetch((link.body as FileUrlResponse).url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename*=UTF-8''My%20bowl.png`);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await api('GET', fileUrl, { token: ann.token })).status).toBe(200);

    for (const stranger of [leo, otherCreator]) expect((await api('GET', fileUrl, { token: stranger.token })).status).toBe(404);
    expect((await api('GET', `/api/submissions/${submissionId}/files/not-a-file/url`, { token: creator.token })).status).toBe(404);
  });

  it('refuses a file that never arrived, a type outside the list, and files on a text-only assignment (400)', async () => {
    const { courseId, filesLessonId, textOnlyId } = await course();
    const started = await api('POST', `/api/learner/courses/${courseId}/lessons/${filesLessonId}/submission-files`, { token: ann.token, body: { name: 'a.pdf', contentType: 'application/pdf', size: 100 } });
    expect(started.status).toBe(201);
    const neverSent = await api('POST', `/api/learner/courses/${courseId}/lessons/${filesLessonId}/submissions`, { token: ann.token, body: { fileIds: [(started.body as SubmissionFileUpload).file.id] } });
    expect(neverSent.status).toBe(400);
    expect(JSON.stringify(neverSent.body)).toContain('has not finished uploading');

    const html = await api('POST', `/api/learner/courses/${courseId}/lessons/${filesLessonId}/submission-files`, { token: ann.token, body: { name: 'a.html', contentType: 'text/html', size: 100 } });
    expect(html.status).toBe(400);
    const textOnly = await api('POST', `/api/learner/courses/${courseId}/lessons/${textOnlyId}/submission-files`, { token: ann.token, body: { name: 'a.pdf', contentType: 'application/pdf', size: 100 } });
    expect(textOnly.status).toBe(400);
    // A learner not enrolled cannot start one.
    const stranger = await accountWithRole('learner', 'subfiles-stranger');
    expect((await api('POST', `/api/learner/courses/${courseId}/lessons/${filesLessonId}/submission-files`, { token: stranger.token, body: { name: 'a.pdf', contentType: 'application/pdf', size: 100 } })).status).toBe(404);
  });
});

describe('uploads nobody handed in', () => {
  it('once due, the scheduled job removes an upload no submission named, bytes and record; the one handed in stays', async () => {
    const { courseId, filesLessonId } = await course();
    const named = await upload(ann, courseId, filesLessonId, { name: 'Bowl.png', contentType: 'image/png', bytes: randomBytes(2_000) });
    const orphan = await upload(ann, courseId, filesLessonId, { name: 'Other angle.png', contentType: 'image/png', bytes: randomBytes(2_000) });
    const handedIn = await api('POST', `/api/learner/courses/${courseId}/lessons/${filesLessonId}/submissions`, { token: ann.token, body: { fileIds: [named.id] } });
    expect(handedIn.status).toBe(201);
    const objectOf = (id: string) => `courses/${courseId}/${filesLessonId}/submissions/${ann.id}/${id}`;
    const itemOf = (id: string) => submissionKeys.file(courseId, filesLessonId, ann.id, id);
    const record = async (id: string) => (await dynamo().send(new GetCommand({ TableName: outputs().TableName, Key: itemOf(id), ConsistentRead: true }))).Item;

    // Its day not yet over: the job leaves it alone.
    useLocalCloudEnv();
    const runJob = () => runToEnd('discussion-mail', (remaining) => discussionMailWork(remaining, { startSender: async () => undefined }));
    await runJob();
    expect(await filesBucketHolds(objectOf(orphan.id))).toBe(true);
    expect(await record(orphan.id)).toMatchObject({ dueAt: expect.any(String) });

    // Its due time moved into the past (this item only: the index is shared with the rest of the suite), as a day on.
    const past = new Date(Date.now() - 60_000).toISOString();
    await dynamo().send(
      new UpdateCommand({
        TableName: outputs().TableName,
        Key: itemOf(orphan.id),
        UpdateExpression: 'SET dueAt = :past, gsi3sk = :sk',
        ExpressionAttributeValues: { ':past': past, ':sk': submissionKeys.unnamedDue({ courseId, lessonId: filesLessonId, learnerId: ann.id, id: orphan.id }, past).gsi3sk },
      }),
    );
    await runJob();
    expect(await filesBucketHolds(objectOf(orphan.id))).toBe(false);
    expect(await record(orphan.id)).toBeUndefined();
    expect(await filesBucketHolds(objectOf(named.id))).toBe(true);
    expect(await record(named.id)).toBeDefined();
    const fileUrl = `/api/submissions/${(handedIn.body as { id: string }).id}/files/${named.id}/url`;
    expect((await api('GET', fileUrl, { token: creator.token })).status).toBe(200);
  });
});

describe('a deleted course', () => {
  it('takes its learners’ submissions and their files with it, the superseded one and an upload never handed in too', async () => {
    const { courseId, filesLessonId } = await course();
    const path = `/api/learner/courses/${courseId}/lessons/${filesLessonId}/submissions`;
    const first = await upload(ann, courseId, filesLessonId, { name: 'First.png', contentType: 'image/png', bytes: randomBytes(1_000) });
    const firstId = ((await api('POST', path, { token: ann.token, body: { fileIds: [first.id] } })).body as { id: string }).id;
    expect((await api('POST', `/api/submissions/${firstId}/grade`, { token: creator.token, body: { status: 'needs_revision', feedback: 'Closer.' } })).status).toBe(200);
    const second = await upload(ann, courseId, filesLessonId, { name: 'Second.png', contentType: 'image/png', bytes: randomBytes(1_000) });
    const handedIn = await api('POST', path, { token: ann.token, body: { text: 'Better.', fileIds: [second.id] } });
    expect(handedIn.status).toBe(201);
    const secondId = (handedIn.body as { id: string }).id;
    const neverHandedIn = await upload(ann, courseId, filesLessonId, { name: 'Spare.png', contentType: 'image/png', bytes: randomBytes(1_000) });
    const leoWork = await upload(leo, courseId, filesLessonId, { name: 'Leo.png', contentType: 'image/png', bytes: randomBytes(1_000) });
    expect((await api('POST', path, { token: leo.token, body: { fileIds: [leoWork.id] } })).status).toBe(201);

    const objects = [
      ...[first, second, neverHandedIn].map((f) => `courses/${courseId}/${filesLessonId}/submissions/${ann.id}/${f.id}`),
      `courses/${courseId}/${filesLessonId}/submissions/${leo.id}/${leoWork.id}`,
    ];
    for (const key of objects) expect(await filesBucketHolds(key)).toBe(true);

    // The route answers at once; its 'course-changed' run (the SQS stand-in and the local event source) removes them.
    expect((await api('DELETE', `/api/courses/${courseId}`, { token: creator.token })).status).toBe(200);
    const table = outputs().TableName;
    const left = async () => {
      const held = await Promise.all(objects.map((key) => filesBucketHolds(key)));
      const submissions = await Promise.all([firstId, secondId].map(async (id) => (await dynamo().send(new GetCommand({ TableName: table, Key: { pk: `SUBMISSION#${id}`, sk: 'SUBMISSION' }, ConsistentRead: true }))).Item));
      const partitions = await Promise.all(
        [ann, leo].map(async (l) => (await dynamo().send(new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `SUBMITTER#${courseId}#${l.id}` }, ConsistentRead: true }))).Items ?? []),
      );
      return held.filter(Boolean).length + submissions.filter(Boolean).length + partitions.flat().length;
    };
    expect(await eventually(left, (n) => n === 0, 30_000)).toBe(0);
    expect((await api('GET', `/api/submissions/${secondId}/files/${second.id}/url`, { token: creator.token })).status).toBe(404);
  });
});

describe('what follows a submission', () => {
  const issueCertificates = async () => {
    useLocalCloudEnv();
    await runToEnd('certificate-issuer', issuerWork);
  };
  const certificates = async (learner: Account) => ((await api('GET', '/api/learner/certificates', { token: learner.token })).body as LearnerCertificateList).items;

  it('the CRM counts the submissions waiting for review; the certificate waits until every assignment has passed', async () => {
    const { courseId, textLessonId, filesLessonId, textOnlyId } = await course();
    const crmRow = async () => ((await api('GET', `/api/crm/learners?courseId=${courseId}`, { token: creator.token })).body as CrmLearnerList).items.find((r) => r.id === ann.id);
    expect((await crmRow())?.pendingSubmissions).toBe(0);

    expect((await api('POST', `/api/learner/courses/${courseId}/lessons/${textLessonId}/complete`, { token: ann.token, body: {} })).status).toBe(200);
    const photo = await upload(ann, courseId, filesLessonId, { name: 'bowl.jpg', contentType: 'image/jpeg', bytes: randomBytes(2000) });
    const withFile = await api('POST', `/api/learner/courses/${courseId}/lessons/${filesLessonId}/submissions`, { token: ann.token, body: { fileIds: [photo.id] } });
    const written = await api('POST', `/api/learner/courses/${courseId}/lessons/${textOnlyId}/submissions`, { token: ann.token, body: { text: 'Round and glazed.' } });
    expect([withFile.status, written.status]).toEqual([201, 201]);
    expect((await crmRow())?.pendingSubmissions).toBe(2);
    const details = (await api('GET', `/api/crm/learners/${ann.id}`, { token: creator.token })).body as CrmLearnerDetails;
    expect(details.enrollments.find((e) => e.courseId === courseId)?.pendingSubmissions).toBe(2);

    const grade = (id: string) => api('POST', `/api/submissions/${id}/grade`, { token: creator.token, body: { status: 'passed' } });
    expect((await grade((withFile.body as { id: string }).id)).status).toBe(200);
    expect((await crmRow())?.pendingSubmissions).toBe(1);
    // Every lesson but one assignment done: no completion, no certificate.
    const outline = async () => (await api('GET', `/api/learner/courses/${courseId}/outline`, { token: ann.token })).body as { completedAt: string | null };
    expect((await outline()).completedAt).toBeNull();
    await issueCertificates();
    expect((await certificates(ann)).filter((c) => c.courseId === courseId)).toEqual([]);

    expect((await grade((written.body as { id: string }).id)).status).toBe(200);
    expect((await crmRow())?.pendingSubmissions).toBe(0);
    expect((await outline()).completedAt).not.toBeNull();
    await issueCertificates();
    expect((await certificates(ann)).filter((c) => c.courseId === courseId)).toHaveLength(1);
  });
});
