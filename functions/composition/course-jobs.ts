import { sqsSliceQueue } from '#adapters/sqs-slice-queue.ts';
import { type CourseChangeJobs, courseChangeSlice } from '#core/courses/changes.ts';
import { clock, courseRepository } from '#functions/composition/deps.ts';

/** The course routes' 'course-changed' runs: each started by its first slice on the job's queue (decision 0034). */
export const courseChangeJobs = (): CourseChangeJobs => ({
  start: (change) => sqsSliceQueue().send([courseChangeSlice(change)]),
});

/**
 * Deleting a course or a lesson: its items at once, and the run that removes the rest, its files included. No file
 * store here: the S3 client is the job's, not these routes' (their bundles' budget).
 */
export const courseRemovalDeps = () => ({ courses: courseRepository(), clock, jobs: courseChangeJobs() });
