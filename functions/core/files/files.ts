import type { CourseFile } from '#contracts/files.ts';
import type { Lesson } from '#contracts/courses.ts';
import { NotFoundError } from '#core/errors.ts';
import type { FileRepository, FileStore, StoredFile } from '#core/files/ports.ts';
import type { StoredCourse } from '#core/ports.ts';

/**
 * What every files use case shares: where a file's object lives, how a file is found in its course, and how files go
 * (bytes first, then items, so a failure half way leaves an item to retry the delete from, never an orphaned object).
 */
export const FILE_NOT_FOUND = 'File not found.';

export interface FileDeps {
  files: FileRepository;
  store: FileStore;
}

/** The S3 key of a file: under its course and lesson, so the bucket's grants can be scoped to `courses/*`. */
export const objectKey = (courseId: string, lessonId: string, fileId: string): string => `courses/${courseId}/${lessonId}/${fileId}`;

/** The contract's file from the stored one (no owner, key or upload id). */
export const fileView = ({ courseId: _courseId, creatorId: _creatorId, s3Key: _s3Key, uploadId: _uploadId, ...file }: StoredFile): CourseFile => file;

/** A file of the course (any lesson) with its lesson, or 404. */
export const findFile = (course: StoredCourse, fileId: string): { lesson: Lesson; file: CourseFile } => {
  for (const lesson of course.lessons) {
    const file = lesson.files.find((f) => f.id === fileId);
    if (file) return { lesson, file };
  }
  throw new NotFoundError(FILE_NOT_FOUND);
};

/** RFC 6266 / 5987: the browser saves the attachment under its own name, any characters included. */
export const attachmentDisposition = (name: string): string =>
  `attachment; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;

/** What a deleted course's or lesson's files need to go (the 'course-changed' job: core/courses/changes.ts). */
export interface FileRemovalDeps {
  files: Pick<FileRepository, 'listByCourse' | 'listByLesson' | 'delete'>;
  store: Pick<FileStore, 'abort' | 'deleteObjects'>;
}

/**
 * Files out: unfinished uploads aborted (their parts go), objects deleted, then the items. Used by the file's own
 * delete, by lesson and course deletion, and when a lesson's video is replaced.
 */
export const removeFiles = async (deps: { files: Pick<FileRepository, 'delete'>; store: Pick<FileStore, 'abort' | 'deleteObjects'> }, files: readonly StoredFile[]): Promise<void> => {
  if (files.length === 0) return;
  await Promise.all(files.filter((f) => f.status === 'uploading').map((f) => deps.store.abort(f.s3Key, f.uploadId)));
  await deps.store.deleteObjects(files.map((f) => f.s3Key));
  await deps.files.delete(files);
};
