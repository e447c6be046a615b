import { s3FileStore } from '#adapters/s3-file-store.ts';
import { courseChangedWork, COURSE_CHANGED_JOB, type CourseChangeStore, type CourseFiles } from '#core/courses/changes.ts';
import { courseTitleVersion, removeDeletedCourseBatch } from '#data/courses.ts';
import { dynamoFiles } from '#data/files.ts';
import { enrollmentTitlePage, retitleEnrollment } from '#data/enrollments.ts';
import { licenseTitlePage, retitleLicense } from '#data/licenses.ts';
import { courseSubmissionRemovalDeps } from '#functions/composition/deps-assignments.ts';
import { dripReplanDeps } from '#functions/composition/deps-drip.ts';
import { membersOnPublishDeps } from '#functions/composition/deps-memberships.ts';
import { slicedJob } from '#functions/jobs/sliced.ts';

/** The 'course-changed' job's reads and writes in DynamoDB. */
export const courseChangeStore = (): CourseChangeStore => ({
  course: courseTitleVersion,
  enrollmentTitles: enrollmentTitlePage,
  retitleEnrollment,
  licenseTitles: licenseTitlePage,
  retitleLicense,
  removeDeletedCourseBatch,
});

/** A deleted course's or lesson's files: their items and the bucket (capability 'files'). */
export const courseFiles = (): CourseFiles => ({ files: dynamoFiles(), store: s3FileStore() });

/**
 * A course renamed or deleted (its learners' submissions and their files with it), or a lesson deleted, carried to
 * its copies and files slice by slice; a lesson's release changed, its learners' drip plans planned again; a course
 * published, given to its memberships' members (core/courses/changes.ts).
 */
export const work = (_remainingMs: () => number) => courseChangedWork(courseChangeStore(), courseFiles(), dripReplanDeps(), membersOnPublishDeps(), courseSubmissionRemovalDeps());

/** Started only by the routes (update-course, delete-course, create-lesson, update-lesson, delete-lesson), through its queue: it has no schedule. */
export const handler = slicedJob(COURSE_CHANGED_JOB, work);
