import type { CourseSubmissionRemoval, SubmissionFileStore } from '#core/assignments/ports.ts';
import { submissionFileKey } from '#core/assignments/rules.ts';

/**
 * A deleted course's submissions (issue 35): they live outside the course's partition (by submission, and per learner
 * in `SUBMITTER#<courseId>#<learnerId>`), their bytes under the course's prefix but with no course file item, so the
 * course's file and partition removal reach none of them. The 'course-changed' run of a deleted course removes them a
 * page at a time from the course's index of every submission (superseded ones too), before the course's partition.
 *
 * Per page, for each learner in it: the objects of every upload in their partition and of every file the page's
 * submissions of theirs name, then their partition's records; then the page's submission items. The submissions go
 * last: they are what the index finds, so a run killed at any point finds the same page again and repeats only
 * idempotent deletes (an object or item already gone is fine). Uploads of a learner who never handed anything in are
 * not reached from here: the unnamed uploads' sweep removes them when they come due (core/assignments/unnamed-uploads.ts).
 */

export const COURSE_SUBMISSIONS_PAGE = 25;

export interface CourseSubmissionRemovalDeps {
  submissions: CourseSubmissionRemoval;
  files: Pick<SubmissionFileStore, 'deleteObjects'>;
}

/** Pages out while time remains (at least one per call): true when some are left for the next slice. */
export const removeCourseSubmissions = async (
  deps: CourseSubmissionRemovalDeps,
  courseId: string,
  timeUp: () => boolean,
  counts: { submissions: number; submissionFiles: number },
): Promise<boolean> => {
  for (let pages = 0; ; pages++) {
    if (pages > 0 && timeUp()) return true;
    const page = await deps.submissions.page(courseId, COURSE_SUBMISSIONS_PAGE);
    if (page.length === 0) return false;
    for (const learnerId of new Set(page.map((s) => s.learnerId))) {
      const uploads = await deps.submissions.learnerUploads(courseId, learnerId);
      const named = page.filter((s) => s.learnerId === learnerId).flatMap((s) => s.files.map((f) => submissionFileKey({ courseId, lessonId: s.lessonId, learnerId, id: f.id })));
      const keys = [...new Set([...uploads.map(submissionFileKey), ...named])];
      if (keys.length > 0) await deps.files.deleteObjects(keys);
      await deps.submissions.removeLearnerRecords(courseId, learnerId);
      counts.submissionFiles += uploads.length;
    }
    for (const s of page) await deps.submissions.remove(s.id);
    counts.submissions += page.length;
  }
};
