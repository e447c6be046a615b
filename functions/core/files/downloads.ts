import { type CourseFile, DOWNLOAD_URL_TTL_SECONDS, type FileUrlResponse } from '#contracts/files.ts';
import { ownCourse } from '#core/courses/courses.ts';
import { reachableCourse } from '#core/enrollments/learner-courses.ts';
import { NotFoundError } from '#core/errors.ts';
import { attachmentDisposition, FILE_NOT_FOUND, findFile, objectKey } from '#core/files/files.ts';
import type { FileStore } from '#core/files/ports.ts';
import type { Clock, CourseRepository, EnrollmentRepository, LicenseRepository, StoredCourse } from '#core/ports.ts';

/**
 * Reading a file: a presigned GET that works for DOWNLOAD_URL_TTL_SECONDS, for the course's creator and for learners
 * actively enrolled in the published course (anyone else: the same 404 as a course that does not exist). Attachments
 * download under their own name; videos play inline. A file still uploading has no URL (404).
 */
export interface DownloadDeps {
  courses: Pick<CourseRepository, 'getCourse'>;
  store: Pick<FileStore, 'downloadUrl'>;
  clock: Clock;
}

const signedUrl = async (deps: DownloadDeps, course: StoredCourse, fileId: string): Promise<FileUrlResponse> => {
  const { lesson, file } = findFile(course, fileId);
  if (file.status !== 'ready') throw new NotFoundError(FILE_NOT_FOUND);
  const url = await deps.store.downloadUrl(objectKey(course.id, lesson.id, file.id), { disposition: dispositionOf(file), ttlSeconds: DOWNLOAD_URL_TTL_SECONDS });
  return { url, expiresAt: new Date(deps.clock.now().getTime() + DOWNLOAD_URL_TTL_SECONDS * 1000).toISOString() };
};

const dispositionOf = (file: CourseFile): string => (file.kind === 'attachment' ? attachmentDisposition(file.name) : 'inline');

/** GET /api/courses/{courseId}/files/{fileId}/url: the course's creator. */
export const creatorFileUrl = async (deps: DownloadDeps, input: { creatorId: string; courseId: string; fileId: string }): Promise<FileUrlResponse> =>
  signedUrl(deps, await ownCourse(deps, input.creatorId, input.courseId), input.fileId);

/** GET /api/learner/courses/{courseId}/files/{fileId}/url: a learner enrolled in the published course. */
export const learnerFileUrl = async (
  deps: DownloadDeps & { enrollments: Pick<EnrollmentRepository, 'get'>; licenses: Pick<LicenseRepository, 'get'> },
  input: { learnerId: string; courseId: string; fileId: string },
): Promise<FileUrlResponse> => signedUrl(deps, (await reachableCourse(deps, input.learnerId, input.courseId)).course, input.fileId);
