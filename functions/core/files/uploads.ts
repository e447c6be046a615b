import type { CourseFile, CompleteUploadBody, PartUrlsBody, PartUrlsResponse, StartUploadBody, StartUploadResponse, UploadedPartsResponse } from '#contracts/files.ts';
import { ATTACHMENTS_PER_LESSON_MAX, PART_URL_TTL_SECONDS, partCount, partSize, UPLOAD_PART_BYTES } from '#contracts/files.ts';
import { COURSE_NOT_FOUND, ownCourse } from '#core/courses/courses.ts';
import { LESSON_NOT_FOUND } from '#core/courses/lessons.ts';
import { ConflictError, NotFoundError, ValidationError } from '#core/errors.ts';
import { FILE_NOT_FOUND, type FileDeps, fileView, findFile, objectKey, removeFiles } from '#core/files/files.ts';
import type { FileRepository, FileStore, StoredFile } from '#core/files/ports.ts';
import type { Clock, CourseRepository, Ids, StoredCourse } from '#core/ports.ts';

/**
 * A creator's uploads (docs/api.md "Course files"): every file is an S3 multipart upload. The server starts it with
 * the declared type, hands out UploadPart URLs whose size is signed, lists what S3 holds (resume), and on completion
 * checks the object again (HeadObject) before the file is 'ready'. Another creator's course, lesson or file is 404
 * and nothing is written.
 */
export const VIDEO_ON_VIDEO_LESSON = 'Upload videos to a video lesson.';
export const MISMATCH = 'The uploaded file does not match what was declared.';
export const ALREADY_UPLOADED = 'This file is already uploaded.';
export const UPLOAD_GONE = 'This upload is no longer in progress. Start it again.';

export interface UploadDeps extends FileDeps {
  courses: Pick<CourseRepository, 'getCourse' | 'updateLesson'>;
  clock: Clock;
}

type FileRef = { creatorId: string; courseId: string; fileId: string };

/** The caller's course and the stored file in it (with its upload id), or 404. */
const ownFile = async (deps: { courses: Pick<CourseRepository, 'getCourse'>; files: FileRepository }, input: FileRef): Promise<{ course: StoredCourse; file: StoredFile }> => {
  const course = await ownCourse(deps, input.creatorId, input.courseId);
  const { lesson } = findFile(course, input.fileId);
  const file = await deps.files.get(input.courseId, lesson.id, input.fileId);
  if (!file) throw new NotFoundError(FILE_NOT_FOUND);
  return { course, file };
};

const stillUploading = (file: StoredFile): void => {
  if (file.status !== 'uploading') throw new ConflictError(ALREADY_UPLOADED);
};

/**
 * POST /api/courses/{courseId}/lessons/{lessonId}/files: 201 with the file ('uploading') and how to cut it. A video
 * only on a video lesson (400); at most ATTACHMENTS_PER_LESSON_MAX attachments (409).
 */
export const startUpload = async (
  deps: UploadDeps & { ids: Ids },
  input: { creatorId: string; courseId: string; lessonId: string; body: StartUploadBody },
): Promise<StartUploadResponse> => {
  const course = await ownCourse(deps, input.creatorId, input.courseId);
  const lesson = course.lessons.find((l) => l.id === input.lessonId);
  if (!lesson) throw new NotFoundError(LESSON_NOT_FOUND);
  const { kind, name, contentType, size } = input.body;
  if (kind === 'video' && lesson.kind !== 'video') throw new ValidationError(VIDEO_ON_VIDEO_LESSON, [{ path: ['kind'], message: VIDEO_ON_VIDEO_LESSON }]);
  if (kind === 'attachment' && lesson.files.filter((f) => f.kind === 'attachment').length >= ATTACHMENTS_PER_LESSON_MAX) {
    throw new ConflictError(`A lesson holds at most ${ATTACHMENTS_PER_LESSON_MAX} attachments.`);
  }
  const id = deps.ids.newId();
  const s3Key = objectKey(course.id, lesson.id, id);
  const uploadId = await deps.store.startMultipart(s3Key, contentType);
  const file: StoredFile = {
    id,
    lessonId: lesson.id,
    kind,
    name,
    contentType,
    size,
    status: 'uploading',
    createdAt: deps.clock.now().toISOString(),
    courseId: course.id,
    creatorId: input.creatorId,
    s3Key,
    uploadId,
  };
  if ((await deps.files.create(file)) === 'gone') {
    await deps.store.abort(s3Key, uploadId);
    throw new NotFoundError(COURSE_NOT_FOUND);
  }
  return { file: fileView(file), partSize: UPLOAD_PART_BYTES, partCount: partCount(size) };
};

/** POST /api/courses/{courseId}/files/{fileId}/parts: a presigned PUT per part, its exact size signed in. */
export const partUrls = async (
  deps: { courses: Pick<CourseRepository, 'getCourse'>; files: FileRepository; clock: Clock; store: Pick<FileStore, 'partUrl'> },
  input: FileRef & { body: PartUrlsBody },
): Promise<PartUrlsResponse> => {
  const { file } = await ownFile(deps, input);
  stillUploading(file);
  const count = partCount(file.size);
  const beyond = input.body.partNumbers.filter((n) => n > count);
  if (beyond.length > 0) throw new ValidationError(`This file has ${count} part${count === 1 ? '' : 's'}.`, [{ path: ['partNumbers'], message: `No part ${beyond.join(', ')}.` }]);
  const partNumbers = [...new Set(input.body.partNumbers)];
  const expiresAt = new Date(deps.clock.now().getTime() + PART_URL_TTL_SECONDS * 1000).toISOString();
  const parts = await Promise.all(
    partNumbers.map(async (partNumber) => {
      const size = partSize(file.size, partNumber);
      return { partNumber, size, url: await deps.store.partUrl(file.s3Key, file.uploadId, partNumber, size, PART_URL_TTL_SECONDS) };
    }),
  );
  return { parts, expiresAt };
};

/** GET /api/courses/{courseId}/files/{fileId}/parts: what S3 already holds, so the browser sends only the rest. */
export const uploadedParts = async (deps: UploadDeps, input: FileRef): Promise<UploadedPartsResponse> => {
  const { file } = await ownFile(deps, input);
  stillUploading(file);
  const parts = await deps.store.listParts(file.s3Key, file.uploadId);
  if (parts === 'no-upload') throw new ConflictError(UPLOAD_GONE);
  return { parts };
};

/**
 * POST /api/courses/{courseId}/files/{fileId}/complete: S3 assembles the parts, then the object must be what was
 * declared (size and type), else it is deleted with its item (400). A ready video replaces the lesson's previous video
 * file and its `videoUrl` (one video source per lesson). A file already ready is answered as it is.
 */
export const completeUpload = async (deps: UploadDeps, input: FileRef & { body: CompleteUploadBody }): Promise<CourseFile> => {
  const { course, file } = await ownFile(deps, input);
  if (file.status === 'ready') return fileView(file);
  const completed = await deps.store.complete(file.s3Key, file.uploadId, input.body.parts);
  if (completed === 'invalid-parts') {
    throw new ValidationError('Some parts are missing or do not match what was uploaded. Send every part once with the ETag S3 gave it.');
  }
  const stored = await deps.store.head(file.s3Key);
  if (completed === 'no-upload' && !stored) throw new ConflictError(UPLOAD_GONE);
  if (!stored || stored.size !== file.size || stored.contentType !== file.contentType) {
    await removeFiles(deps, [{ ...file, status: 'ready' }]);
    throw new ValidationError(MISMATCH, { declared: { size: file.size, contentType: file.contentType }, stored });
  }
  if ((await deps.files.markReady(file)) === 'not-uploading') {
    // A completion at the same moment got there first: answer the file as it now is.
    const now = await deps.files.get(file.courseId, file.lessonId, file.id);
    if (!now) throw new NotFoundError(FILE_NOT_FOUND);
    return fileView(now);
  }
  if (file.kind === 'video') await replacePreviousVideo(deps, course, file);
  return { ...fileView(file), status: 'ready' };
};

/** The lesson's other videos (and the URL it played) give way to the video just completed. */
const replacePreviousVideo = async (deps: UploadDeps, course: StoredCourse, file: StoredFile): Promise<void> => {
  const previous = (await deps.files.listByLesson(file.courseId, file.lessonId)).filter((f) => f.kind === 'video' && f.id !== file.id && f.status === 'ready');
  await removeFiles(deps, previous);
  const lesson = course.lessons.find((l) => l.id === file.lessonId);
  if (lesson?.videoUrl) {
    const { files: _files, ...record } = lesson;
    await deps.courses.updateLesson({ creatorId: course.creatorId, lesson: { ...record, videoUrl: null, updatedAt: deps.clock.now().toISOString() } });
  }
};

/** DELETE /api/courses/{courseId}/files/{fileId}: an unfinished upload is aborted, the object and the item go (204). */
export const deleteFile = async (deps: UploadDeps, input: FileRef): Promise<void> => {
  const { file } = await ownFile(deps, input);
  await removeFiles(deps, [file]);
};
