import { describe, expect, it } from 'vitest';
import { sanitizeLessonHtml } from '#adapters/html-sanitizer.ts';
import { ATTACHMENTS_PER_LESSON_MAX, PART_URL_TTL_SECONDS, type StartUploadBody, UPLOAD_PART_BYTES } from '#contracts/files.ts';
import { createCourse, deleteCourse, getCourse } from '#core/courses/courses.ts';
import { createLesson, deleteLesson, updateLesson } from '#core/courses/lessons.ts';
import { completeUpload, deleteFile, MISMATCH, partUrls, startUpload, uploadedParts, VIDEO_ON_VIDEO_LESSON } from '#core/files/uploads.ts';
import { NOW, sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { courseChangedWork, type CourseChangeStore } from '#core/courses/changes.ts';
import { memoryCourses, recordingRenames } from '#test/functions/fakes/courses.ts';
import { memoryFiles, memoryFileStore } from '#test/functions/fakes/files.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { noDripReplan } from '#test/functions/fakes/drip.ts';

const MiB = 1024 * 1024;
const VIDEO_URL = 'https://www.youtube.com/watch?v=dQw4w9WgXcQ';

const setup = async () => {
  // The File items are created only while the course and lesson are there (as the table's conditions make it).
  const held: { courses?: ReturnType<typeof memoryCourses> } = {};
  const files = memoryFiles(async (f) => {
    const course = await held.courses?.getCourse(f.courseId);
    return course?.creatorId === f.creatorId && course.lessons.some((l) => l.id === f.lessonId);
  });
  const courses = (held.courses = memoryCourses(files.all));
  const changes = recordingRenames();
  const deps = { courses, files, store: memoryFileStore(), clock: testClock(), ids: sequentialIds(), sanitize: sanitizeLessonHtml, jobs: changes.jobs };
  const course = await createCourse(deps, { creatorId: 'ann', body: { title: 'Knife skills' } });
  const video = await createLesson(deps, { creatorId: 'ann', courseId: course.id, body: { title: 'Watch', kind: 'video' } });
  const text = await createLesson(deps, { creatorId: 'ann', courseId: course.id, body: { title: 'Read', kind: 'text', body: '<p>Hi</p>' } });
  return { ...deps, courseId: course.id, videoLessonId: video.id, textLessonId: text.id, changes };
};
type Deps = Awaited<ReturnType<typeof setup>>;

/** The 'course-changed' runs the deletes started, each to its end: their files' part (the partition's is not here). */
const runCourseChanges = async (d: Deps) => {
  const store = {
    course: async (courseId: string) => ((await d.courses.getCourse(courseId)) ? {} : undefined),
    removeDeletedCourseBatch: async () => 'done' as const,
  } as unknown as CourseChangeStore;
  for (const input of d.changes.started.splice(0)) await runToEnd('course-changed', () => courseChangedWork(store, d, noDripReplan()), { input });
};

const mp4 = (size = 9 * MiB): StartUploadBody => ({ kind: 'video', name: 'chop.mp4', contentType: 'video/mp4', size });
const pdf = (name = 'notes.pdf', size = 20_000): StartUploadBody => ({ kind: 'attachment', name, contentType: 'application/pdf', size });

const start = (d: Deps, body: StartUploadBody, lessonId = d.videoLessonId, creatorId = 'ann') => startUpload(d, { creatorId, courseId: d.courseId, lessonId, body });

/** The browser's side: every part PUT with its exact size, then completed with the ETags S3 gave. */
const upload = async (d: Deps, body: StartUploadBody, lessonId = d.videoLessonId) => {
  const started = await start(d, body, lessonId);
  const ref = { creatorId: 'ann', courseId: d.courseId, fileId: started.file.id };
  const numbers = Array.from({ length: started.partCount }, (_, i) => i + 1);
  const { parts } = await partUrls(d, { ...ref, body: { partNumbers: numbers } });
  const stored = (await d.files.get(d.courseId, lessonId, started.file.id))!;
  for (const part of parts) d.store.put(stored.uploadId, part.partNumber, part.size);
  return completeUpload(d, { ...ref, body: { parts: numbers.map((partNumber) => ({ partNumber, etag: `"etag-${partNumber}"` })) } });
};

const filesOf = async (d: Deps, lessonId: string) => (await getCourse(d, { creatorId: 'ann', courseId: d.courseId })).lessons.find((l) => l.id === lessonId)?.files ?? [];

describe('starting an upload', () => {
  it('starts a multipart upload with the declared type and answers the file, uploading, cut in 8 MiB parts', async () => {
    const d = await setup();
    const started = await start(d, mp4());
    expect(started).toEqual({
      file: { id: 'id-4', lessonId: d.videoLessonId, kind: 'video', name: 'chop.mp4', contentType: 'video/mp4', size: 9 * MiB, status: 'uploading', createdAt: NOW },
      partSize: UPLOAD_PART_BYTES,
      partCount: 2,
    });
    expect(await filesOf(d, d.videoLessonId)).toEqual([started.file]);
    expect(d.store.openUploads()).toHaveLength(1);
  });

  it('refuses a video on a text lesson (400), starting nothing', async () => {
    const d = await setup();
    await expect(start(d, mp4(), d.textLessonId)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: VIDEO_ON_VIDEO_LESSON });
    expect(d.store.calls('startMultipart')).toBe(0);
  });

  it(`stops at ${ATTACHMENTS_PER_LESSON_MAX} attachments on a lesson (409)`, async () => {
    const d = await setup();
    for (let i = 0; i < ATTACHMENTS_PER_LESSON_MAX; i++) await start(d, pdf(`n${i}.pdf`), d.textLessonId);
    await expect(start(d, pdf(), d.textLessonId)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await filesOf(d, d.textLessonId)).toHaveLength(ATTACHMENTS_PER_LESSON_MAX);
  });

  it('is 404 for another creator\'s course and for a lesson the course does not have, with no upload started', async () => {
    const d = await setup();
    await expect(start(d, pdf(), d.textLessonId, 'bob')).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Course not found.' });
    await expect(start(d, pdf(), 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Lesson not found.' });
    expect(d.store.calls('startMultipart')).toBe(0);
    expect(d.files.all()).toEqual([]);
  });

  it('aborts the upload it started when the lesson went meanwhile (404)', async () => {
    const d = await setup();
    d.files.before('create', () => deleteLesson(d, { creatorId: 'ann', courseId: d.courseId, lessonId: d.textLessonId }));
    await expect(start(d, pdf(), d.textLessonId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(d.store.openUploads()).toEqual([]);
  });
});

describe('uploading the parts', () => {
  it('signs each asked part with its exact size for the part TTL; the last part is the remainder', async () => {
    const d = await setup();
    const { file } = await start(d, mp4());
    const answer = await partUrls(d, { creatorId: 'ann', courseId: d.courseId, fileId: file.id, body: { partNumbers: [2, 1] } });
    expect(answer.parts.map((p) => [p.partNumber, p.size])).toEqual([[2, MiB], [1, 8 * MiB]]);
    expect(answer.parts[0]!.url).toContain(`length=${MiB}&expires=${PART_URL_TTL_SECONDS}`);
    expect(answer.expiresAt).toBe('2026-11-21T12:15:00.000Z');
  });

  it('refuses a part number beyond the file\'s parts (400)', async () => {
    const d = await setup();
    const { file } = await start(d, mp4());
    await expect(partUrls(d, { creatorId: 'ann', courseId: d.courseId, fileId: file.id, body: { partNumbers: [3] } })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('lists the parts S3 already holds, so a dropped upload resumes where it stopped', async () => {
    const d = await setup();
    const { file } = await start(d, mp4());
    const { uploadId } = (await d.files.get(d.courseId, d.videoLessonId, file.id))!;
    d.store.put(uploadId, 1, 8 * MiB);
    expect(await uploadedParts(d, { creatorId: 'ann', courseId: d.courseId, fileId: file.id })).toEqual({ parts: [{ partNumber: 1, etag: '"etag-1"', size: 8 * MiB }] });
  });
});

describe('completing an upload', () => {
  it('makes the file ready when the object is what was declared; completing again answers it again', async () => {
    const d = await setup();
    const ready = await upload(d, pdf(), d.textLessonId);
    expect(ready).toMatchObject({ status: 'ready', name: 'notes.pdf', size: 20_000 });
    expect(await filesOf(d, d.textLessonId)).toEqual([ready]);
    const again = await completeUpload(d, { creatorId: 'ann', courseId: d.courseId, fileId: ready.id, body: { parts: [{ partNumber: 1, etag: '"etag-1"' }] } });
    expect(again).toEqual(ready);
    expect(d.store.calls('complete')).toBe(1);
  });

  it('deletes an object whose size or type is not what was declared (400): object and file gone', async () => {
    const d = await setup();
    const { file } = await start(d, pdf(), d.textLessonId);
    const { uploadId, s3Key } = (await d.files.get(d.courseId, d.textLessonId, file.id))!;
    d.store.put(uploadId, 1, 19_999);
    await expect(completeUpload(d, { creatorId: 'ann', courseId: d.courseId, fileId: file.id, body: { parts: [{ partNumber: 1, etag: '"etag-1"' }] } })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: MISMATCH,
    });
    expect(d.store.objectKeys()).not.toContain(s3Key);
    expect(d.files.all()).toEqual([]);

    const other = await start(d, pdf(), d.textLessonId);
    const stored = (await d.files.get(d.courseId, d.textLessonId, other.file.id))!;
    d.store.put(stored.uploadId, 1, 20_000);
    d.store.before('head', () => d.store.retype(stored.s3Key, 'text/html'));
    await expect(completeUpload(d, { creatorId: 'ann', courseId: d.courseId, fileId: other.file.id, body: { parts: [{ partNumber: 1, etag: '"etag-1"' }] } })).rejects.toMatchObject({
      message: MISMATCH,
    });
    expect(d.store.objectKeys()).toEqual([]);
  });

  it('answers the ready file when a completion at the same moment got there first', async () => {
    const d = await setup();
    const { file } = await start(d, pdf(), d.textLessonId);
    const stored = (await d.files.get(d.courseId, d.textLessonId, file.id))!;
    d.store.put(stored.uploadId, 1, 20_000);
    d.files.before('markReady', async (call) => {
      if (call === 1) await d.files.markReady(stored);
    });
    const answer = await completeUpload(d, { creatorId: 'ann', courseId: d.courseId, fileId: file.id, body: { parts: [{ partNumber: 1, etag: '"etag-1"' }] } });
    expect(answer).toMatchObject({ id: file.id, status: 'ready' });
  });

  it('a resume after the upload went (aborted elsewhere) is 409, asking to start again', async () => {
    const d = await setup();
    const { file } = await start(d, mp4());
    const stored = (await d.files.get(d.courseId, d.videoLessonId, file.id))!;
    await d.store.abort(stored.s3Key, stored.uploadId);
    await expect(uploadedParts(d, { creatorId: 'ann', courseId: d.courseId, fileId: file.id })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(completeUpload(d, { creatorId: 'ann', courseId: d.courseId, fileId: file.id, body: { parts: [{ partNumber: 1, etag: '"etag-1"' }] } })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(partUrls(d, { creatorId: 'ann', courseId: d.courseId, fileId: 'nope', body: { partNumbers: [1] } })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'File not found.' });
  });

  it('refuses parts S3 does not hold (400), keeping the upload to finish', async () => {
    const d = await setup();
    const { file } = await start(d, mp4());
    await expect(completeUpload(d, { creatorId: 'ann', courseId: d.courseId, fileId: file.id, body: { parts: [{ partNumber: 1, etag: '"etag-1"' }] } })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    expect(d.store.openUploads()).toHaveLength(1);
    expect((await filesOf(d, d.videoLessonId))[0]?.status).toBe('uploading');
  });

  it('a new video replaces the lesson\'s previous video file and its video URL (one video source per lesson)', async () => {
    const d = await setup();
    await updateLesson(d, { creatorId: 'ann', courseId: d.courseId, lessonId: d.videoLessonId, body: { videoUrl: VIDEO_URL } });
    const first = await upload(d, mp4());
    expect((await getCourse(d, { creatorId: 'ann', courseId: d.courseId })).lessons[0]?.videoUrl).toBeNull();
    const second = await upload(d, mp4(3 * MiB));
    expect((await filesOf(d, d.videoLessonId)).map((f) => f.id)).toEqual([second.id]);
    expect(d.store.objectKeys()).toEqual([`courses/${d.courseId}/${d.videoLessonId}/${second.id}`]);
    expect(first.id).not.toBe(second.id);
  });
});

describe('deleting files', () => {
  it('aborts an unfinished upload and deletes a ready file\'s object and item', async () => {
    const d = await setup();
    const uploading = await start(d, pdf('a.pdf'), d.textLessonId);
    const ready = await upload(d, pdf('b.pdf'), d.textLessonId);
    for (const fileId of [uploading.file.id, ready.id]) await deleteFile(d, { creatorId: 'ann', courseId: d.courseId, fileId });
    expect(d.store.openUploads()).toEqual([]);
    expect(d.store.objectKeys()).toEqual([]);
    expect(await filesOf(d, d.textLessonId)).toEqual([]);
  });

  it('a lesson\'s files go with the lesson, a course\'s with the course', async () => {
    const d = await setup();
    await upload(d, pdf(), d.textLessonId);
    await upload(d, mp4());
    await start(d, pdf('half.pdf'), d.textLessonId);
    await deleteLesson(d, { creatorId: 'ann', courseId: d.courseId, lessonId: d.textLessonId });
    // The route answers with the files still there; its 'course-changed' run removes them.
    expect(d.files.all()).toHaveLength(3);
    await runCourseChanges(d);
    expect(d.files.all().map((f) => f.lessonId)).toEqual([d.videoLessonId]);
    expect(d.store.openUploads()).toEqual([]);
    await deleteCourse(d, { creatorId: 'ann', courseId: d.courseId });
    await runCourseChanges(d);
    expect(d.files.all()).toEqual([]);
    expect(d.store.objectKeys()).toEqual([]);
  });

  it('switching a lesson to text or giving it a video URL deletes its uploaded video, keeping attachments', async () => {
    const d = await setup();
    await upload(d, mp4());
    const attachment = await upload(d, pdf(), d.videoLessonId);
    const edited = await updateLesson(d, { creatorId: 'ann', courseId: d.courseId, lessonId: d.videoLessonId, body: { videoUrl: VIDEO_URL } });
    expect(edited.files).toEqual([attachment]);
    expect(await filesOf(d, d.videoLessonId)).toEqual([attachment]);
    await upload(d, mp4());
    await updateLesson(d, { creatorId: 'ann', courseId: d.courseId, lessonId: d.videoLessonId, body: { kind: 'text' } });
    expect((await filesOf(d, d.videoLessonId)).map((f) => f.kind)).toEqual(['attachment']);
    expect(d.store.objectKeys()).toEqual([`courses/${d.courseId}/${d.videoLessonId}/${attachment.id}`]);
  });
});

describe('another creator', () => {
  it('gets 404 on every file route of a course not theirs, and nothing changes', async () => {
    const d = await setup();
    const ready = await upload(d, pdf(), d.textLessonId);
    const ref = { creatorId: 'bob', courseId: d.courseId, fileId: ready.id };
    const attempts = [
      () => partUrls(d, { ...ref, body: { partNumbers: [1] } }),
      () => uploadedParts(d, ref),
      () => completeUpload(d, { ...ref, body: { parts: [{ partNumber: 1, etag: '"etag-1"' }] } }),
      () => deleteFile(d, ref),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Course not found.' });
    expect(await filesOf(d, d.textLessonId)).toEqual([ready]);
    expect(d.store.objectKeys()).toHaveLength(1);
  });
});
