import * as z from 'zod';
import { isoDate } from './common.ts';
import { ATTACHMENT_CONTENT_TYPES, FILE_NAME_MAX, MAX_FILE_BYTES } from './files.ts';

/**
 * Assignments (issue 35 point 2; ../shared/API.md "Discussions and assignments", docs/api.md "Assignments"): a learner
 * hands in work on an assignment lesson, the course's creator grades it passed or needs revision with feedback, and
 * the learner hands it in again when asked. Only the latest submission of a learner's lesson counts: a resubmission
 * takes the place of the one that needed revision (which leaves the creator's queue).
 *
 * Files: on a lesson that accepts them, the learner uploads each file first (POST .../submission-files: one presigned
 * PUT of exactly the declared type and size, the course files' attachment types and limit), then names them in
 * `fileIds`. Files are only ever served as downloads (attachment disposition, a safe content type).
 */

export const SUBMISSION_TEXT_MAX = 20_000;
export const FEEDBACK_MAX = 5000;
/** Submissions per page of the creator's queue. */
export const SUBMISSIONS_PAGE = 20;

export const submissionStatuses = ['submitted', 'passed', 'needs_revision'] as const;
export const submissionStatus = z.enum(submissionStatuses);
export type SubmissionStatus = z.infer<typeof submissionStatus>;

/** POST /api/learner/courses/{courseId}/lessons/{lessonId}/submissions: text, files, or both (at least one). */
export const createSubmissionBody = z
  .strictObject({
    text: z.string().trim().max(SUBMISSION_TEXT_MAX, `Use at most ${SUBMISSION_TEXT_MAX} characters.`).optional(),
    fileIds: z.array(z.string().min(1).max(100)).max(10).optional(),
  })
  .refine((b) => (b.text ?? '') !== '' || (b.fileIds ?? []).length > 0, { message: 'Write your answer before you submit it.', path: ['text'] });
export type CreateSubmissionBody = z.infer<typeof createSubmissionBody>;

/** 201 of the POST. */
export const submissionCreated = z.object({ id: z.string(), status: z.literal('submitted') });
export type SubmissionCreated = z.infer<typeof submissionCreated>;

/** Files per submission. */
export const SUBMISSION_FILES_MAX = 10;
/** What a learner may hand in: the course files' attachment types (PDF and images), up to the attachment's 50 MB. */
export const SUBMISSION_FILE_TYPES: readonly string[] = ATTACHMENT_CONTENT_TYPES;
export const SUBMISSION_FILE_BYTES = MAX_FILE_BYTES.attachment;
/** How long the presigned PUT of a submission file works. */
export const SUBMISSION_UPLOAD_TTL_SECONDS = 15 * 60;

/** POST /api/learner/courses/{courseId}/lessons/{lessonId}/submission-files: the file the learner is about to upload. */
export const startSubmissionFileBody = z
  .strictObject({
    name: z.string().trim().min(1, 'Name the file.').max(FILE_NAME_MAX),
    contentType: z.string().max(100),
    size: z.number().int().min(1, 'The file is empty.'),
  })
  .refine((b) => SUBMISSION_FILE_TYPES.includes(b.contentType), { message: 'Upload a PDF or an image (PNG, JPEG, GIF, WebP).', path: ['contentType'] })
  .refine((b) => b.size <= SUBMISSION_FILE_BYTES, { message: 'A file can be up to 50 MB.', path: ['size'] });
export type StartSubmissionFileBody = z.infer<typeof startSubmissionFileBody>;

/** A handed-in file. */
export const submissionFile = z.object({ id: z.string(), name: z.string(), contentType: z.string(), size: z.number().int().min(0) });
export type SubmissionFile = z.infer<typeof submissionFile>;

/**
 * 201 of the start: PUT the file's exact bytes to `url` (it works until `expiresAt`) with its `Content-Type`; type and
 * size are signed, so anything else fails. Then name `file.id` in the submission's `fileIds`.
 */
export const submissionFileUpload = z.object({ file: submissionFile, url: z.url(), expiresAt: isoDate });
export type SubmissionFileUpload = z.infer<typeof submissionFileUpload>;

/** The learner's own latest submission of a lesson, with the creator's word on it. */
export const mySubmission = z.object({
  id: z.string(),
  text: z.string(),
  files: z.array(submissionFile),
  status: submissionStatus,
  submittedAt: isoDate,
  /** The creator's feedback ('' when they gave none); null until graded. */
  feedback: z.string().nullable(),
  gradedAt: isoDate.nullable(),
});
export type MySubmission = z.infer<typeof mySubmission>;

/** GET /api/learner/courses/{courseId}/lessons/{lessonId}/submissions: the learner's latest, or null before any. */
export const mySubmissionAnswer = z.object({ submission: mySubmission.nullable() });
export type MySubmissionAnswer = z.infer<typeof mySubmissionAnswer>;

/** A submission as the course's creator sees it in their queue. */
export const submission = mySubmission.extend({
  courseId: z.string(),
  lessonId: z.string(),
  lessonTitle: z.string(),
  learnerEmail: z.string(),
});
export type Submission = z.infer<typeof submission>;

/** GET /api/courses/{courseId}/submissions?status=&cursor=: oldest first (the queue's order); absent status: submitted. */
export const submissionsQuery = z.strictObject({ status: submissionStatus.optional(), cursor: z.string().min(1).max(2000).optional() });
export const submissionList = z.object({ items: z.array(submission), nextCursor: z.string().nullable() });
export type SubmissionList = z.infer<typeof submissionList>;

/** POST /api/submissions/{submissionId}/grade: a revision asks for something, so it says what. */
export const gradeSubmissionBody = z
  .strictObject({
    status: z.enum(['passed', 'needs_revision']),
    feedback: z.string().trim().max(FEEDBACK_MAX, `Use at most ${FEEDBACK_MAX} characters.`).default(''),
  })
  .refine((b) => b.status === 'passed' || b.feedback !== '', { message: 'Say what the learner should change.', path: ['feedback'] });
export type GradeSubmissionBody = z.infer<typeof gradeSubmissionBody>;
