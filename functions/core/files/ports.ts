import type { CourseFile } from '#contracts/files.ts';

/**
 * The ports only the use cases of core/files use (docs/decisions/0029-rooms-match-the-domains.md). Adapters
 * in functions/data and functions/adapters implement them; the ports several domains share are in core/ports.ts.
 */

/** A file as stored: the contract's file, its course's owner, its S3 key and its multipart upload's id. */
export type StoredFile = CourseFile & { courseId: string; creatorId: string; s3Key: string; uploadId: string };

/** A part S3 holds of an upload in progress. */
export interface UploadedPart {
  partNumber: number;
  etag: string;
  size: number;
}

/**
 * The private files bucket (S3). Every upload is a multipart upload; the browser sends the bytes straight to S3 through
 * presigned URLs that fix each part's size, and reads files through short-lived presigned GETs.
 */
export interface FileStore {
  /** CreateMultipartUpload with the declared content type; answers the upload id. */
  startMultipart(key: string, contentType: string): Promise<string>;
  /** A presigned UploadPart URL whose signature covers the part's exact Content-Length. */
  partUrl(key: string, uploadId: string, partNumber: number, contentLength: number, ttlSeconds: number): Promise<string>;
  /** The parts S3 holds so far, in order ('no-upload' when the upload is gone: completed or aborted). */
  listParts(key: string, uploadId: string): Promise<UploadedPart[] | 'no-upload'>;
  /** CompleteMultipartUpload; 'invalid-parts' when S3 refuses the list (a missing part, a wrong ETag, a small part). */
  complete(key: string, uploadId: string, parts: readonly { partNumber: number; etag: string }[]): Promise<'completed' | 'invalid-parts' | 'no-upload'>;
  /** HeadObject: the stored object's size and type, undefined when there is none. */
  head(key: string): Promise<{ size: number; contentType: string | undefined } | undefined>;
  /** A presigned GET; `disposition` becomes the response's Content-Disposition. */
  downloadUrl(key: string, options: { disposition: string; ttlSeconds: number }): Promise<string>;
  /** AbortMultipartUpload (its parts go); an upload already gone is fine. */
  abort(key: string, uploadId: string): Promise<void>;
  /** Deletes these objects (missing ones are fine). */
  deleteObjects(keys: readonly string[]): Promise<void>;
}

/** The File items of a course's partition (functions/data/files.ts). */
export interface FileRepository {
  /**
   * One transaction: the new file, only while the course is the creator's and the lesson exists ('gone' otherwise).
   */
  create(file: StoredFile): Promise<'created' | 'gone'>;
  get(courseId: string, lessonId: string, fileId: string): Promise<StoredFile | undefined>;
  listByLesson(courseId: string, lessonId: string): Promise<StoredFile[]>;
  listByCourse(courseId: string): Promise<StoredFile[]>;
  /**
   * The course's file with this id, whatever its lesson (a learner's link names the file alone), read eventually
   * consistently: a file made ready or deleted a moment ago may take a moment to show so.
   */
  findInCourse(courseId: string, fileId: string): Promise<StoredFile | undefined>;
  /** 'uploading' -> 'ready', once: 'not-uploading' when it is already ready or gone. */
  markReady(file: Pick<StoredFile, 'courseId' | 'lessonId' | 'id'>): Promise<'ready' | 'not-uploading'>;
  /** Deletes these File items (missing ones are fine). */
  delete(files: readonly Pick<StoredFile, 'courseId' | 'lessonId' | 'id'>[]): Promise<void>;
}
