import { memoryQuizAttempts } from '#test/functions/fakes/quiz-attempts.ts';
import { memoryLicenses } from '#test/functions/fakes/licenses.ts';
import { memoryPublicProfiles } from '#test/functions/fakes/public-profiles.ts';
import { describe, expect, it } from 'vitest';
import { sanitizeLessonHtml } from '#adapters/html-sanitizer.ts';
import { DOWNLOAD_URL_TTL_SECONDS, type StartUploadBody } from '#contracts/files.ts';
import { createCourse, updateCourse } from '#core/courses/courses.ts';
import { createLesson, deleteLesson } from '#core/courses/lessons.ts';
import { learnerCourseDetail } from '#core/enrollments/learner-courses.ts';
import { creatorFileUrl, learnerFileUrl } from '#core/files/downloads.ts';
import { completeUpload, deleteFile, partUrls, startUpload } from '#core/files/uploads.ts';
import { NOW, sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { memoryCourses, recordingRenames } from '#test/functions/fakes/courses.ts';
import { memoryEnrollments } from '#test/functions/fakes/enrollments.ts';
import { memoryFiles, memoryFileStore } from '#test/functions/fakes/files.ts';
import { memoryUsers } from '#test/functions/fakes/users.ts';

const setup = async () => {
  const files = memoryFiles();
  const courses = memoryCourses(files.all);
  const d = {
    courses,
    files,
    store: memoryFileStore(),
    enrollments: memoryEnrollments(),
    licenses: memoryLicenses(),
    quizzes: memoryQuizAttempts(),
    users: memoryUsers(),
    clock: testClock(),
    ids: sequentialIds(),
    sanitize: sanitizeLessonHtml,
  };
  const course = await createCourse(d, { creatorId: 'ann', body: { title: 'Knife skills' } });
  const lesson = await createLesson(d, { creatorId: 'ann', courseId: course.id, body: { title: 'Watch', kind: 'video' } });
  await updateCourse({ ...d, jobs: recordingRenames().jobs }, { creatorId: 'ann', courseId: course.id, body: { status: 'published' } });
  await d.enrollments.enroll({ courseId: course.id, learnerId: 'leo', creatorId: 'ann', learnerEmail: 'leo@example.com', learnerJoinedAt: NOW, courseTitle: 'Knife skills', enrolledAt: NOW });
  return { ...d, courseId: course.id, lessonId: lesson.id };
};
type Deps = Awaited<ReturnType<typeof setup>>;

const pdf: StartUploadBody = { kind: 'attachment', name: 'Knife notes (v2).pdf', contentType: 'application/pdf', size: 1000 };
const mp4: StartUploadBody = { kind: 'video', name: 'chop.mp4', contentType: 'video/mp4', size: 1000 };

const upload = async (d: Deps, body: StartUploadBody, finish = true) => {
  const { file } = await startUpload(d, { creatorId: 'ann', courseId: d.courseId, lessonId: d.lessonId, body });
  if (!finish) return file;
  const ref = { creatorId: 'ann', courseId: d.courseId, fileId: file.id };
  await partUrls(d, { ...ref, body: { partNumbers: [1] } });
  d.store.put((await d.files.get(d.courseId, d.lessonId, file.id))!.uploadId, 1, body.size);
  return completeUpload(d, { ...ref, body: { parts: [{ partNumber: 1, etag: '"etag-1"' }] } });
};

describe('signed download URLs', () => {
  it('gives the creator a short-lived URL: attachments download under their name, videos play inline', async () => {
    const d = await setup();
    const attachment = await upload(d, pdf);
    const video = await upload(d, mp4);
    const forAttachment = await creatorFileUrl(d, { creatorId: 'ann', courseId: d.courseId, fileId: attachment.id });
    expect(forAttachment.url).toContain(encodeURIComponent("attachment; filename*=UTF-8''Knife%20notes%20%28v2%29.pdf"));
    expect(forAttachment.url).toContain(`expires=${DOWNLOAD_URL_TTL_SECONDS}`);
    expect(forAttachment.expiresAt).toBe('2026-11-21T12:15:00.000Z');
    expect((await creatorFileUrl(d, { creatorId: 'ann', courseId: d.courseId, fileId: video.id })).url).toContain('disposition=inline');
  });

  it('gives an enrolled learner of the published course a URL, and shows them only ready files', async () => {
    const d = await setup();
    const ready = await upload(d, pdf);
    await upload(d, mp4, false);
    expect((await learnerFileUrl(d, { learnerId: 'leo', courseId: d.courseId, fileId: ready.id })).url).toContain(`courses/${d.courseId}/${d.lessonId}/${ready.id}`);
    const detail = await learnerCourseDetail({ ...d, profiles: memoryPublicProfiles(), branding: async () => null }, { learnerId: 'leo', courseId: d.courseId });
    expect(detail.lessons[0]?.files).toEqual([ready]);
  });

  it("reads the outline and the file's item, never a lesson; refuses another course's file, a removed file and one whose lesson was deleted", async () => {
    const d = await setup();
    const ready = await upload(d, pdf);
    // Another course of the same creator, its file ready, in which leo is not enrolled.
    const other = await createCourse(d, { creatorId: 'ann', body: { title: 'Pastry' } });
    const otherLesson = await createLesson(d, { creatorId: 'ann', courseId: other.id, body: { title: 'Dough', kind: 'text' } });
    await updateCourse({ ...d, jobs: recordingRenames().jobs }, { creatorId: 'ann', courseId: other.id, body: { status: 'published' } });
    const foreign = await upload({ ...d, courseId: other.id, lessonId: otherLesson.id }, pdf);

    const lessonReads = d.courses.calls('getLesson') + d.courses.calls('getLessons') + d.courses.calls('getCourse');
    expect((await learnerFileUrl(d, { learnerId: 'leo', courseId: d.courseId, fileId: ready.id })).url).toContain(ready.id);
    expect(d.courses.calls('getLesson') + d.courses.calls('getLessons') + d.courses.calls('getCourse')).toBe(lessonReads);

    // Another course's file, asked under the course leo is enrolled in, or under its own: 404 either way.
    await expect(learnerFileUrl(d, { learnerId: 'leo', courseId: d.courseId, fileId: foreign.id })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'File not found.' });
    await expect(learnerFileUrl(d, { learnerId: 'leo', courseId: other.id, fileId: foreign.id })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Course not found.' });

    // A removed file: 404.
    const removed = await upload(d, mp4);
    await deleteFile(d, { creatorId: 'ann', courseId: d.courseId, fileId: removed.id });
    await expect(learnerFileUrl(d, { learnerId: 'leo', courseId: d.courseId, fileId: removed.id })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'File not found.' });

    // A deleted lesson: its file items wait for the 'course-changed' run, but the outline no longer lists it: 404.
    await deleteLesson({ ...d, jobs: recordingRenames().jobs }, { creatorId: 'ann', courseId: d.courseId, lessonId: d.lessonId });
    expect(await d.files.findInCourse(d.courseId, ready.id)).toBeDefined();
    await expect(learnerFileUrl(d, { learnerId: 'leo', courseId: d.courseId, fileId: ready.id })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'File not found.' });
    expect(d.store.calls('downloadUrl')).toBe(1);
  });

  it('is 404 for a learner not enrolled, a removed learner, another creator, a file still uploading and a draft course', async () => {
    const d = await setup();
    const ready = await upload(d, pdf);
    const uploading = await upload(d, mp4, false);
    await expect(learnerFileUrl(d, { learnerId: 'eve', courseId: d.courseId, fileId: ready.id })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Course not found.' });
    await expect(creatorFileUrl(d, { creatorId: 'bob', courseId: d.courseId, fileId: ready.id })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Course not found.' });
    await expect(creatorFileUrl(d, { creatorId: 'ann', courseId: d.courseId, fileId: uploading.id })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'File not found.' });
    await expect(learnerFileUrl(d, { learnerId: 'leo', courseId: d.courseId, fileId: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'File not found.' });
    await updateCourse({ ...d, jobs: recordingRenames().jobs }, { creatorId: 'ann', courseId: d.courseId, body: { status: 'draft' } });
    await expect(learnerFileUrl(d, { learnerId: 'leo', courseId: d.courseId, fileId: ready.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await updateCourse({ ...d, jobs: recordingRenames().jobs }, { creatorId: 'ann', courseId: d.courseId, body: { status: 'published' } });
    await d.enrollments.remove(d.courseId, 'leo');
    await expect(learnerFileUrl(d, { learnerId: 'leo', courseId: d.courseId, fileId: ready.id })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(d.store.calls('downloadUrl')).toBe(0);
  });
});
