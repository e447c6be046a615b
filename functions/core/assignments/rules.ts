import type { MySubmission, Submission, SubmissionStatus } from '#contracts/submissions.ts';
import type { StoredSubmission } from '#core/assignments/ports.ts';

/**
 * The assignment rules as pure functions (issue 35 point 2): when a learner may hand in, what a grade may do, and the
 * views of a submission. Only the latest submission counts: a learner hands in again only after the creator asked for
 * a revision, and only the latest, still waiting, can be graded.
 */

export const WAITING_FOR_REVIEW = 'Your work is waiting for the creator’s review. You can hand it in again if they ask for a revision.';
export const ALREADY_PASSED = 'This assignment has passed already.';
export const SUPERSEDED = 'The learner has handed in a newer version: grade that one.';
export const ALREADY_GRADED = 'This submission has been graded already.';

/** Why the learner may not hand in now (their latest is waiting or passed), or undefined when they may. */
export const submitRefusal = (latest: Pick<StoredSubmission, 'status'> | undefined): string | undefined => {
  if (!latest || latest.status === 'needs_revision') return undefined;
  return latest.status === 'passed' ? ALREADY_PASSED : WAITING_FOR_REVIEW;
};

/**
 * What a grade does to a submission: 'grade' a waiting latest one; 'again' when it was passed already and is passed
 * again (a retry after a lost answer: the lesson's completion is made sure of, no second email); otherwise why not.
 */
export const gradeOutcome = (submission: Pick<StoredSubmission, 'status' | 'supersededBy'>, status: Exclude<SubmissionStatus, 'submitted'>): 'grade' | 'again' | { refused: string } => {
  if (submission.supersededBy !== null) return { refused: SUPERSEDED };
  if (submission.status === 'submitted') return 'grade';
  if (submission.status === 'passed' && status === 'passed') return 'again';
  return { refused: ALREADY_GRADED };
};

export const mySubmissionView = (s: StoredSubmission): MySubmission => ({
  id: s.id,
  text: s.text,
  // Learners hand in text only for now (functions/contracts/submissions.ts): no stored submission has files.
  files: [],
  status: s.status,
  submittedAt: s.submittedAt,
  feedback: s.feedback,
  gradedAt: s.gradedAt,
});

export const submissionView = (s: StoredSubmission): Submission => ({
  ...mySubmissionView(s),
  courseId: s.courseId,
  lessonId: s.lessonId,
  lessonTitle: s.lessonTitle,
  learnerEmail: s.learnerEmail,
});
