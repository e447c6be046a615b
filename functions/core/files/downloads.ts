import { type CourseFile, DOWNLOAD_URL_TTL_SECONDS, type FileUrlResponse } from '#contracts/files.ts';
import type { AccessSources } from '#core/access/access.ts';
import { ownCourse } from '#core/courses/courses.ts';
import { mustBeOpen } from '#core/enrollments/drip.ts';
import { reachableOutline } from '#core/enrollments/learner-courses.ts';
import { NotFoundError } from '#core/errors.ts';
import { attachmentDisposition, FILE_NOT_FOUND, findFile, objectKey } from '#core/files/files.ts';
import type { FileRepository, FileStore } from '#core/files/ports.ts';
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

/** A ready file's presigned GET and when it ends; a file still uploading has none (404). */
const fileUrl = async (deps: Pick<DownloadDeps, 'store' | 'clock'>, courseId: string, lessonId: string, file: CourseFile): Promise<FileUrlResponse> => {
  if (file.status !== 'ready') throw new NotFoundError(FILE_NOT_FOUND);
  const url = await deps.store.downloadUrl(objectKey(courseId, lessonId, file.id), { disposition: dispositionOf(file), ttlSeconds: DOWNLOAD_URL_TTL_SECONDS });
  return { url, expiresAt: new Date(deps.clock.now().getTime() + DOWNLOAD_URL_TTL_SECONDS * 1000).toISOString() };
};

const signedUrl = async (deps: DownloadDeps, course: StoredCourse, fileId: string): Promise<FileUrlResponse> => {
  const { lesson, file } = findFile(course, fileId);
  return fileUrl(deps, course.id, lesson.id, file);
};

const dispositionOf = (file: CourseFile): string => (file.kind === 'attachment' ? attachmentDisposition(file.name) : 'inline');

/** GET /api/courses/{courseId}/files/{fileId}/url: the course's creator. */
export const creatorFileUrl = async (deps: DownloadDeps, input: { creatorId: string; courseId: string; fileId: string }): Promise<FileUrlResponse> =>
  signedUrl(deps, await ownCourse(deps, input.creatorId, input.courseId), input.fileId);

/**
 * GET /api/learner/courses/{courseId}/files/{fileId}/url: a learner enrolled in the published course. Reads what it
 * needs, as the lesson route does (decision 0037): the course's outline (the access rules, and which lessons it has)
 * beside the file's item among the course's files, both eventually consistent; no lesson is read. A file whose lesson
 * the outline does not list (deleted: its files go with the 'course-changed' run) is 404 as a file that does not exist;
 * one of a drip lesson still locked for the learner is 403 LESSON_LOCKED.
 */
export const learnerFileUrl = async (
  deps: Pick<DownloadDeps, 'store' | 'clock'> & {
    courses: Pick<CourseRepository, 'getOutline'>;
    files: Pick<FileRepository, 'findInCourse'>;
    enrollments: Pick<EnrollmentRepository, 'get'>;
    licenses: Pick<LicenseRepository, 'get'>;
    memberships?: AccessSources['memberships'];
  },
  input: { learnerId: string; courseId: string; fileId: string },
): Promise<FileUrlResponse> => {
  const [{ course, enrollment }, file] = await Promise.all([reachableOutline(deps, input.learnerId, input.courseId), deps.files.findInCourse(input.courseId, input.fileId)]);
  const lesson = course.lessons.find((l) => l.id === file?.lessonId);
  if (!file || !lesson) throw new NotFoundError(FILE_NOT_FOUND);
  // A drip lesson's files wait with it (403 LESSON_LOCKED until it opens to this learner).
  mustBeOpen(lesson, enrollment.enrolledAt, deps.clock.now());
  return fileUrl(deps, course.id, file.lessonId, file);
};
