import { randomBytes } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CourseFile, UPLOAD_PART_BYTES } from '#contracts/files.ts';
import { documentClient, tableName } from '#data/table.ts';
import { accountWithRole, api, eventually, filesBucketHolds, useLocalCloudEnv } from './support.ts';

/**
 * Course files end to end: the gateway, the handlers, DynamoDB Local and the S3 emulator (s3rver). The browser's part
 * is played with fetch: the bytes go straight to the presigned URLs, never through the API.
 */
type Account = Awaited<ReturnType<typeof accountWithRole>>;
let ann: Account;
let bob: Account;
let leo: Account;
let eve: Account;

beforeAll(async () => {
  [ann, bob, leo, eve] = await Promise.all([
    accountWithRole('creator', 'files-ann'),
    accountWithRole('creator', 'files-bob'),
    accountWithRole('learner', 'files-leo'),
    accountWithRole('learner', 'files-eve'),
  ]);
});

/** Whether the bucket holds an object at this file's key. */
const stored = (courseId: string, lessonId: string, fileId: string) => filesBucketHolds(`courses/${courseId}/${lessonId}/${fileId}`);

const fileItems = async (courseId: string) => {
  useLocalCloudEnv();
  const { Items } = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :file)',
      ExpressionAttributeValues: { ':pk': `COURSE#${courseId}`, ':file': 'FILE#' },
      ConsistentRead: true,
    }),
  );
  return Items ?? [];
};

/** A published course of ann's with a video lesson and a text lesson, leo enrolled. */
const courseWithLessons = async () => {
  const course = (await api('POST', '/api/courses', { token: ann.token, body: { title: 'Knife skills' } })).body as { id: string };
  const video = await api('POST', `/api/courses/${course.id}/lessons`, { token: ann.token, body: { title: 'Watch', kind: 'video' } });
  expect(video.status).toBe(201);
  const text = await api('POST', `/api/courses/${course.id}/lessons`, { token: ann.token, body: { title: 'Read', kind: 'text', body: '<p>Hi</p>' } });
  expect((await api('PATCH', `/api/courses/${course.id}`, { token: ann.token, body: { status: 'published' } })).status).toBe(200);
  expect((await api('POST', `/api/courses/${course.id}/enrollments`, { token: ann.token, body: { email: leo.email } })).status).toBe(201);
  return { courseId: course.id, videoLessonId: video.body.id as string, textLessonId: text.body.id as string };
};

/** PUT each part's bytes to its presigned URL, as the browser does; answers the parts with their ETags. */
const putParts = async (courseId: string, fileId: string, bytes: Buffer, partNumbers: number[]) => {
  const urls = await api('POST', `/api/courses/${courseId}/files/${fileId}/parts`, { token: ann.token, body: { partNumbers } });
  expect(urls.status).toBe(200);
  const done: { partNumber: number; etag: string }[] = [];
  for (const part of urls.body.parts as { partNumber: number; url: string; size: number }[]) {
    const slice = bytes.subarray((part.partNumber - 1) * UPLOAD_PART_BYTES, (part.partNumber - 1) * UPLOAD_PART_BYTES + part.size);
    const res = await fetch(part.url, { method: 'PUT', body: slice });
    expect(res.status).toBe(200);
    done.push({ partNumber: part.partNumber, etag: res.headers.get('etag')! });
  }
  return done;
};

const start = (courseId: string, lessonId: string, body: unknown, token = ann.token) => api('POST', `/api/courses/${courseId}/lessons/${lessonId}/files`, { token, body });

describe('uploading a lesson video (multipart)', () => {
  it('creator uploads ~9 MB in 2 parts, completes, and downloads the same bytes', async () => {
    const { courseId, videoLessonId } = await courseWithLessons();
    const bytes = randomBytes(9 * 1024 * 1024 + 123);
    const started = await start(courseId, videoLessonId, { kind: 'video', name: 'chop.mp4', contentType: 'video/mp4', size: bytes.length });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ partSize: UPLOAD_PART_BYTES, partCount: 2, file: { status: 'uploading', kind: 'video', size: bytes.length } });
    const fileId = started.body.file.id as string;

    const first = await putParts(courseId, fileId, bytes, [1]);
    // The connection drops here; the browser asks what S3 already holds and uploads only the rest.
    const held = await api('GET', `/api/courses/${courseId}/files/${fileId}/parts`, { token: ann.token });
    expect(held).toMatchObject({ status: 200, body: { parts: [{ partNumber: 1, etag: first[0]!.etag, size: UPLOAD_PART_BYTES }] } });
    const second = await putParts(courseId, fileId, bytes, [2]);

    const completed = await api('POST', `/api/courses/${courseId}/files/${fileId}/complete`, { token: ann.token, body: { parts: [...first, ...second] } });
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({ id: fileId, status: 'ready' });
    const again = await api('POST', `/api/courses/${courseId}/files/${fileId}/complete`, { token: ann.token, body: { parts: [...first, ...second] } });
    expect(again.body).toEqual(completed.body);

    const course = await api('GET', `/api/courses/${courseId}`, { token: ann.token });
    expect(course.body.lessons[0].files).toEqual([completed.body as CourseFile]);

    const link = await api('GET', `/api/courses/${courseId}/files/${fileId}/url`, { token: ann.token });
    expect(link.status).toBe(200);
    const download = await fetch(link.body.url);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
  });
});

describe('who gets a download URL', () => {
  it('an enrolled learner of the published course gets one; a learner not enrolled and another creator get 404 and write nothing', async () => {
    const { courseId, textLessonId } = await courseWithLessons();
    const bytes = randomBytes(20_000);
    const started = await start(courseId, textLessonId, { kind: 'attachment', name: 'Knife notes.pdf', contentType: 'application/pdf', size: bytes.length });
    const fileId = started.body.file.id as string;
    const parts = await putParts(courseId, fileId, bytes, [1]);
    expect((await api('POST', `/api/courses/${courseId}/files/${fileId}/complete`, { token: ann.token, body: { parts } })).status).toBe(200);

    const learner = await api('GET', `/api/learner/courses/${courseId}/files/${fileId}/url`, { token: leo.token });
    expect(learner.status).toBe(200);
    const download = await fetch(learner.body.url);
    expect(download.headers.get('content-disposition')).toBe(`attachment; filename*=UTF-8''Knife%20notes.pdf`);
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
    const detail = await api('GET', `/api/learner/courses/${courseId}`, { token: leo.token });
    expect(detail.body.lessons[1].files).toMatchObject([{ id: fileId, status: 'ready' }]);

    expect((await api('GET', `/api/learner/courses/${courseId}/files/${fileId}/url`, { token: eve.token })).status).toBe(404);
    const before = await fileItems(courseId);
    const attempts = [
      api('GET', `/api/courses/${courseId}/files/${fileId}/url`, { token: bob.token }),
      api('POST', `/api/courses/${courseId}/files/${fileId}/parts`, { token: bob.token, body: { partNumbers: [1] } }),
      api('GET', `/api/courses/${courseId}/files/${fileId}/parts`, { token: bob.token }),
      api('POST', `/api/courses/${courseId}/files/${fileId}/complete`, { token: bob.token, body: { parts } }),
      api('DELETE', `/api/courses/${courseId}/files/${fileId}`, { token: bob.token }),
      start(courseId, textLessonId, { kind: 'attachment', name: 'x.pdf', contentType: 'application/pdf', size: 10 }, bob.token),
    ];
    for (const res of await Promise.all(attempts)) expect(res).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
    expect(await fileItems(courseId)).toEqual(before);
    expect(await stored(courseId, textLessonId, fileId)).toBe(true);
  });
});

describe('refusals', () => {
  it('a completed upload whose size is not what was declared is 400, and the object is gone', async () => {
    const { courseId, textLessonId } = await courseWithLessons();
    const started = await start(courseId, textLessonId, { kind: 'attachment', name: 'a.png', contentType: 'image/png', size: 20_000 });
    const fileId = started.body.file.id as string;
    const urls = await api('POST', `/api/courses/${courseId}/files/${fileId}/parts`, { token: ann.token, body: { partNumbers: [1] } });
    // The emulator does not check the signed Content-Length (S3 does): the server's HeadObject check still catches it.
    const put = await fetch(urls.body.parts[0].url, { method: 'PUT', body: randomBytes(19_999) });
    const res = await api('POST', `/api/courses/${courseId}/files/${fileId}/complete`, { token: ann.token, body: { parts: [{ partNumber: 1, etag: put.headers.get('etag') }] } });
    expect(res).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_FAILED', message: 'The uploaded file does not match what was declared.' } } });
    expect(await stored(courseId, textLessonId, fileId)).toBe(false);
    expect(await fileItems(courseId)).toEqual([]);
  });

  it('bad bodies are 400 with the contract\'s error body, and start nothing', async () => {
    const { courseId, videoLessonId, textLessonId } = await courseWithLessons();
    const bad = [
      start(courseId, videoLessonId, { kind: 'video', name: 'x.avi', contentType: 'video/x-msvideo', size: 10 }),
      start(courseId, videoLessonId, { kind: 'video', name: 'x.mp4', contentType: 'video/mp4', size: 3 * 1024 ** 3 }),
      start(courseId, textLessonId, { kind: 'attachment', name: 'x.pdf', contentType: 'application/pdf', size: 0 }),
      start(courseId, textLessonId, { kind: 'attachment', name: 'x.pdf', contentType: 'application/pdf', size: 10, extra: true }),
      start(courseId, textLessonId, { kind: 'video', name: 'x.mp4', contentType: 'video/mp4', size: 10 }),
    ];
    for (const res of await Promise.all(bad)) expect(res).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_FAILED' } } });
    const ok = await start(courseId, textLessonId, { kind: 'attachment', name: 'x.pdf', contentType: 'application/pdf', size: 10 });
    const fileId = ok.body.file.id as string;
    for (const body of [{ partNumbers: [] }, { partNumbers: [2] }, { partNumbers: [0] }]) {
      expect((await api('POST', `/api/courses/${courseId}/files/${fileId}/parts`, { token: ann.token, body })).status).toBe(400);
    }
    expect((await api('POST', `/api/courses/${courseId}/files/${fileId}/complete`, { token: ann.token, body: { parts: [] } })).status).toBe(400);
    expect((await fileItems(courseId)).map((i) => i['id'])).toEqual([fileId]);
  });
});

describe('deleting', () => {
  it('deleting an unfinished upload aborts it: its parts are gone and the file with them', async () => {
    const { courseId, videoLessonId } = await courseWithLessons();
    const bytes = randomBytes(9 * 1024 * 1024);
    const started = await start(courseId, videoLessonId, { kind: 'video', name: 'half.webm', contentType: 'video/webm', size: bytes.length });
    const fileId = started.body.file.id as string;
    await putParts(courseId, fileId, bytes, [1]);

    expect((await api('DELETE', `/api/courses/${courseId}/files/${fileId}`, { token: ann.token })).status).toBe(204);
    expect(await fileItems(courseId)).toEqual([]);
    expect((await api('GET', `/api/courses/${courseId}/files/${fileId}/parts`, { token: ann.token })).status).toBe(404);
  });

  it('deleting a file, its lesson or its course removes the objects', async () => {
    const { courseId, videoLessonId, textLessonId } = await courseWithLessons();
    const upload = async (lessonId: string, name: string) => {
      const bytes = randomBytes(1000);
      const started = await start(courseId, lessonId, { kind: 'attachment', name, contentType: 'application/pdf', size: bytes.length });
      const fileId = started.body.file.id as string;
      const parts = await putParts(courseId, fileId, bytes, [1]);
      expect((await api('POST', `/api/courses/${courseId}/files/${fileId}/complete`, { token: ann.token, body: { parts } })).status).toBe(200);
      return fileId;
    };
    const [a, b, c] = [await upload(textLessonId, 'a.pdf'), await upload(textLessonId, 'b.pdf'), await upload(videoLessonId, 'c.pdf')];

    expect((await api('DELETE', `/api/courses/${courseId}/files/${a}`, { token: ann.token })).status).toBe(204);
    expect(await stored(courseId, textLessonId, a)).toBe(false);

    // A lesson's and a course's files go by their 'course-changed' run (the SQS stand-in and the local event source),
    // just after the route answers.
    expect((await api('DELETE', `/api/courses/${courseId}/lessons/${textLessonId}`, { token: ann.token })).status).toBe(200);
    expect(await eventually(() => stored(courseId, textLessonId, b), (held) => !held)).toBe(false);
    expect(await stored(courseId, videoLessonId, c)).toBe(true);

    expect((await api('DELETE', `/api/courses/${courseId}`, { token: ann.token })).status).toBe(200);
    expect(await eventually(() => stored(courseId, videoLessonId, c), (held) => !held)).toBe(false);
    expect(await eventually(() => fileItems(courseId), (items) => items.length === 0)).toEqual([]);
  });
});
