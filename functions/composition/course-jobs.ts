import { sqsSliceQueue } from '#adapters/sqs-slice-queue.ts';
import { type CourseChangeJobs, courseChangeSlice } from '#core/courses/changes.ts';

/** The course routes' 'course-changed' runs: each started by its first slice on the job's queue (decision 0034). */
export const courseChangeJobs = (): CourseChangeJobs => ({
  start: (change) => sqsSliceQueue().send([courseChangeSlice(change)]),
});
