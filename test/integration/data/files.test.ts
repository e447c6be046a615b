import { beforeAll, describe, expect, it } from 'vitest';
import type { LessonRecord } from '#contracts/courses.ts';
import type { StoredFile } from '#core/files/ports.ts';
import { dynamoCourses } from '#data/courses.ts';
import { dynamoFiles, fileKeys } from '#data/files.ts';
import { courseRecord } from '#test/functions/fakes/courses.ts';
import { useLocalCloudEnv } from '../support.ts';
import { rawItem, unique } from './data-support.ts';

beforeAll(useLocalCloudEnv);

const AT = '2026-11-01T12:00:00.000Z';

/** A course of `creatorId` with one lesson, stored through the courses adapter. */
const courseWithLesson = async (creatorId: string) => {
  const course = courseRecord({ id: unique('course'), creatorId, description: '', status: 'draft', priceAmount: 0, seatPriceAmount: 0, createdAt: AT, updatedAt: AT });
  const lesson: LessonRecord = { id: unique('lesson'), courseId: course.id, title: 'Watch', kind: 'video', body: null, videoUrl: null, quiz: null, position: 0, createdAt: AT, updatedAt: AT };
  await dynamoCourses().create(course);
  expect(await dynamoCourses().createLesson({ creatorId, lesson })).toBe('created');
  return { courseId: course.id, lessonId: lesson.id };
};

const fileOf = (ref: { courseId: string; lessonId: string }, creatorId: string, extra: Partial<StoredFile> = {}): StoredFile => {
  const id = unique('file');
  return {
    id,
    lessonId: ref.lessonId,
    courseId: ref.courseId,
    creatorId,
    kind: 'attachment',
    name: 'notes.pdf',
    contentType: 'application/pdf',
    size: 1000,
    status: 'uploading',
    createdAt: AT,
    s3Key: `courses/${ref.courseId}/${ref.lessonId}/${id}`,
    uploadId: 'upload-1',
    ...extra,
  };
};

describe('the files store (DynamoDB Local)', () => {
  it('creates a file under its lesson, reads it back, and lists it by lesson and by course', async () => {
    const files = dynamoFiles();
    const creatorId = unique('creator');
    const ref = await courseWithLesson(creatorId);
    const file = fileOf(ref, creatorId);
    expect(await files.create(file)).toBe('created');
    expect(await rawItem(fileKeys.file(ref.courseId, ref.lessonId, file.id))).toMatchObject({ type: 'File', sk: `FILE#${ref.lessonId}#${file.id}`, uploadId: 'upload-1' });
    expect(await files.get(ref.courseId, ref.lessonId, file.id)).toEqual(file);
    expect(await files.get(ref.courseId, ref.lessonId, 'nope')).toBeUndefined();
    expect(await files.listByLesson(ref.courseId, ref.lessonId)).toEqual([file]);
    expect(await files.listByLesson(ref.courseId, 'other')).toEqual([]);
    expect(await files.listByCourse(ref.courseId)).toEqual([file]);
    // By its id alone, in its course only (a learner's link).
    expect(await files.findInCourse(ref.courseId, file.id)).toEqual(file);
    expect(await files.findInCourse(ref.courseId, 'nope')).toBeUndefined();
    expect(await files.findInCourse(unique('other-course'), file.id)).toBeUndefined();
    await expect(files.create(file)).rejects.toThrow(`File id ${file.id} is already taken.`);
  });

  it('refuses a file for another creator\'s course, a missing course or a missing lesson, writing nothing', async () => {
    const files = dynamoFiles();
    const creatorId = unique('creator');
    const ref = await courseWithLesson(creatorId);
    for (const file of [fileOf(ref, unique('intruder')), fileOf({ ...ref, courseId: unique('missing') }, creatorId), fileOf({ ...ref, lessonId: unique('missing') }, creatorId)]) {
      expect(await files.create(file)).toBe('gone');
      expect(await rawItem(fileKeys.file(file.courseId, file.lessonId, file.id))).toBeUndefined();
    }
  });

  it('moves a file from uploading to ready once', async () => {
    const files = dynamoFiles();
    const creatorId = unique('creator');
    const ref = await courseWithLesson(creatorId);
    const file = fileOf(ref, creatorId);
    await files.create(file);
    expect(await files.markReady(file)).toBe('ready');
    expect(await files.markReady(file)).toBe('not-uploading');
    expect((await files.get(ref.courseId, ref.lessonId, file.id))?.status).toBe('ready');
  });

  it('the course is read with each lesson\'s files, in the one partition read', async () => {
    const files = dynamoFiles();
    const creatorId = unique('creator');
    const ref = await courseWithLesson(creatorId);
    const first = fileOf(ref, creatorId, { createdAt: '2026-11-01T12:00:01.000Z' });
    const second = fileOf(ref, creatorId, { kind: 'video', contentType: 'video/mp4', createdAt: '2026-11-01T12:00:02.000Z' });
    await files.create(second);
    await files.create(first);
    const course = await dynamoCourses().getCourse(ref.courseId);
    expect(course?.lessons[0]?.files.map((f) => f.id)).toEqual([first.id, second.id]);
    expect(course?.lessons[0]?.files[0]).not.toHaveProperty('uploadId');
  });

  it('deletes files (more than one batch); missing ones are fine', async () => {
    const files = dynamoFiles();
    const creatorId = unique('creator');
    const ref = await courseWithLesson(creatorId);
    const many = Array.from({ length: 30 }, () => fileOf(ref, creatorId));
    await Promise.all(many.map((f) => files.create(f)));
    expect(await files.listByCourse(ref.courseId)).toHaveLength(30);
    await files.delete([...many, fileOf(ref, creatorId)]);
    expect(await files.listByCourse(ref.courseId)).toEqual([]);
  });
});
