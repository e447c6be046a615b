import { courseChangedWork, COURSE_CHANGED_JOB, type CourseChangeStore } from '#core/courses/changes.ts';
import { courseTitleVersion, removeDeletedCourseBatch } from '#data/courses.ts';
import { enrollmentTitlePage, retitleEnrollment } from '#data/enrollments.ts';
import { licenseTitlePage, retitleLicense } from '#data/licenses.ts';
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

/** A course renamed or deleted, carried to its enrolments and licences slice by slice (core/courses/changes.ts). */
export const work = (_remainingMs: () => number) => courseChangedWork(courseChangeStore());

/** Started only by the routes (update-course, delete-course), through its queue: it has no schedule. */
export const handler = slicedJob(COURSE_CHANGED_JOB, work);
