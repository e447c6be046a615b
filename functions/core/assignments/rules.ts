import { SUBMISSION_UPLOAD_TTL_SECONDS, type MySubmission, type Submission, type SubmissionStatus } from '#contracts/submissions.ts';
import type { StoredSubmission, StoredSubmissionFile } from '#core/assignments/ports.ts';

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

/**
 * The S3 key of a learner's submission file: under the course and lesson (the files grant covers `courses/*`), in a
 * prefix of the learner's own, so no key of one learner's files is ever another's.
 */
export const submissionFileKey = (f: { courseId: string; lessonId: string; learnerId: string; id: string }): string =>
  `courses/${f.courseId}/${f.lessonId}/submissions/${f.learnerId}/${f.id}`;

/**
 * How long an upload nobody has handed in is kept after its presigned PUT stopped working: long enough for a learner
 * who uploaded first and writes their answer afterwards, short enough that abandoned bytes do not pile up.
 */
export const UNNAMED_UPLOAD_KEPT_SECONDS = 24 * 60 * 60;

/**
 * The table's own TTL on an unnamed upload's item comes this long after the job's due time: only a backstop for an
 * item the job never reached. It must come well after the due time, since a TTL delete leaves the object in the bucket
 * with nothing left to find it by: the job (every minute) has two days before that can happen.
 */
export const UNNAMED_UPLOAD_TTL_MARGIN_SECONDS = 2 * 24 * 60 * 60;

/**
 * When an upload started at `createdAt` is removed unless a submission names it first (`dueAt`, the sweep's index),
 * and the TTL (epoch seconds) its item carries until then. A submission's write takes both off.
 */
export const unnamedUploadLifetime = (createdAt: string): { dueAt: string; expiresAt: number } => {
  const due = Date.parse(createdAt) + (SUBMISSION_UPLOAD_TTL_SECONDS + UNNAMED_UPLOAD_KEPT_SECONDS) * 1000;
  return { dueAt: new Date(due).toISOString(), expiresAt: Math.ceil(due / 1000) + UNNAMED_UPLOAD_TTL_MARGIN_SECONDS };
};

/**
 * The Content-Type a submission file is downloaded with: its own when it is one a browser shows harmlessly (PDF and
 * raster images), application/octet-stream for anything else (never HTML, SVG or script, whatever was declared).
 */
export const SAFE_DOWNLOAD_TYPES: readonly string[] = ['application/pdf', 'image/png', 'image/jpeg', 'image/gif', 'image/webp'];
export const safeDownloadType = (contentType: string): string => {
  const bare = contentType.split(';')[0]!.trim().toLowerCase();
  return SAFE_DOWNLOAD_TYPES.includes(bare) ? bare : 'application/octet-stream';
};

export const NOT_YOUR_FILE = 'One of the files is not one you uploaded to this assignment: upload it again.';
export const NOT_UPLOADED = 'One of the files has not finished uploading: wait for it, or upload it again.';

/**
 * Why the files named in a submission may not be handed in, or undefined when they may: every id must be one of the
 * learner's own uploads of this lesson (`found`), and S3 must hold exactly what was declared (`stored`, by id).
 */
export const fileRefusal = (
  fileIds: readonly string[],
  found: readonly Pick<StoredSubmissionFile, 'id' | 'size' | 'contentType'>[],
  stored: ReadonlyMap<string, { size: number; contentType: string | undefined } | undefined>,
): string | undefined => {
  const byId = new Map(found.map((f) => [f.id, f]));
  if (fileIds.some((id) => !byId.has(id))) return NOT_YOUR_FILE;
  for (const id of fileIds) {
    const file = byId.get(id)!;
    const object = stored.get(id);
    if (!object || object.size !== file.size || object.contentType !== file.contentType) return NOT_UPLOADED;
  }
  return undefined;
};

export const mySubmissionView = (s: StoredSubmission): MySubmission => ({
  id: s.id,
  text: s.text,
  files: s.files.map(({ id, name, contentType, size }) => ({ id, name, contentType, size })),
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
