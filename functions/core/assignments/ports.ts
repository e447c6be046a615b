import type { SubmissionStatus } from '#contracts/submissions.ts';
import type { QueuedMail } from '#core/ports.ts';

/**
 * The ports only core/assignments uses (docs/decisions/0029-rooms-match-the-domains.md); functions/data/submissions.ts
 * implements them.
 */

/** A learner's submission of an assignment lesson, as stored. */
export interface StoredSubmission {
  id: string;
  courseId: string;
  lessonId: string;
  /** The lesson's title when it was handed in (the queue shows it without reading the course). */
  lessonTitle: string;
  /** The course's creator (who grades it). */
  creatorId: string;
  learnerId: string;
  /** The learner's address when they handed it in (the creator's queue shows it, as their learner list does). */
  learnerEmail: string;
  text: string;
  fileIds: string[];
  status: SubmissionStatus;
  submittedAt: string;
  feedback: string | null;
  gradedAt: string | null;
  /** The resubmission that took its place (it left the creator's queue then); null while it is the latest. */
  supersededBy: string | null;
}

export interface SubmissionRepository {
  /** Consistent. */
  get(submissionId: string): Promise<StoredSubmission | undefined>;
  /** The learner's latest submission of the lesson (consistent), or undefined before any. */
  latest(courseId: string, lessonId: string, learnerId: string): Promise<StoredSubmission | undefined>;
  /**
   * One transaction: the submission, and the learner's pointer to their latest moved to it, only while it still
   * points at `previous` (none: only while there is no pointer); `previous` leaves the queue (superseded), only while
   * it still needs revision. False when any of that changed meanwhile.
   */
  submit(input: { submission: StoredSubmission; previous: StoredSubmission | undefined }): Promise<boolean>;
  /** A course's latest submissions of one status, oldest first, a page at a time by its index (never a scan). */
  pageByCourse(courseId: string, status: SubmissionStatus, page: { cursor?: string | undefined; limit: number }): Promise<{ items: StoredSubmission[]; nextCursor: string | null }>;
  /**
   * One transaction: the grade (status, feedback, gradedAt; the submission moves to that status's queue), only while it
   * is still submitted and the latest, and the learner's email queued with it. False when that changed meanwhile.
   */
  grade(input: { submission: StoredSubmission; status: Exclude<SubmissionStatus, 'submitted'>; feedback: string; gradedAt: string; mail: QueuedMail | undefined }): Promise<boolean>;
}
