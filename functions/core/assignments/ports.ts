import type { SubmissionFile, SubmissionStatus } from '#contracts/submissions.ts';
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
  /** The handed-in files (name, type, size as uploaded), in `fileIds`' order. */
  files: SubmissionFile[];
  status: SubmissionStatus;
  submittedAt: string;
  feedback: string | null;
  gradedAt: string | null;
  /** The resubmission that took its place (it left the creator's queue then); null while it is the latest. */
  supersededBy: string | null;
}

/** A file a learner uploaded for an assignment lesson (their own, under their own key prefix). */
export interface StoredSubmissionFile extends SubmissionFile {
  courseId: string;
  lessonId: string;
  learnerId: string;
  createdAt: string;
}

/**
 * The files bucket as submissions use it: a presigned PUT of exactly the declared type and size (as the creators'
 * pictures are uploaded), HeadObject to see what arrived, and a presigned GET that downloads as an attachment.
 */
export interface SubmissionFileStore {
  uploadUrl(key: string, input: { contentType: string; contentLength: number; ttlSeconds: number }): Promise<string>;
  head(key: string): Promise<{ size: number; contentType: string | undefined } | undefined>;
  /** `disposition` and `contentType` become the response's Content-Disposition and Content-Type. */
  downloadUrl(key: string, input: { disposition: string; contentType: string; ttlSeconds: number }): Promise<string>;
  /** Idempotent: a key already gone is fine. */
  deleteObjects(keys: readonly string[]): Promise<void>;
}

export interface SubmissionRepository {
  /** Consistent. */
  get(submissionId: string): Promise<StoredSubmission | undefined>;
  /** The learner's latest submission of the lesson (consistent), or undefined before any. */
  latest(courseId: string, lessonId: string, learnerId: string): Promise<StoredSubmission | undefined>;
  /**
   * One transaction: the submission, and the learner's pointer to their latest moved to it, only while it still
   * points at `previous` (none: only while there is no pointer); `previous` leaves the queue (superseded), only while
   * it still needs revision; each file it names taken off the sweep's index and the TTL, only while its upload is
   * there and not being removed. False when any of that changed meanwhile.
   */
  submit(input: { submission: StoredSubmission; previous: StoredSubmission | undefined }): Promise<boolean>;
  /** A course's latest submissions of one status, oldest first, a page at a time by its index (never a scan). */
  pageByCourse(courseId: string, status: SubmissionStatus, page: { cursor?: string | undefined; limit: number }): Promise<{ items: StoredSubmission[]; nextCursor: string | null }>;
  /**
   * One transaction: the grade (status, feedback, gradedAt; the submission moves to that status's queue), only while it
   * is still submitted and the latest, and the learner's email queued with it. False when that changed meanwhile.
   */
  grade(input: { submission: StoredSubmission; status: Exclude<SubmissionStatus, 'submitted'>; feedback: string; gradedAt: string; mail: QueuedMail | undefined }): Promise<boolean>;
  /**
   * The learner's uploaded file of the lesson, kept by its key in the learner's own partition, due for removal at
   * `unnamed.dueAt` (and under the table's TTL) until a submission names it.
   */
  putFile(file: StoredSubmissionFile, unnamed: { dueAt: string; expiresAt: number }): Promise<void>;
  /**
   * These files of the learner's lesson, read by key (one BatchGetItem); ids that are not theirs, and uploads the sweep
   * has started removing, are simply absent.
   */
  getFiles(courseId: string, lessonId: string, learnerId: string, fileIds: readonly string[]): Promise<StoredSubmissionFile[]>;
  /**
   * How many of each learner's submissions in each course wait for review (submitted, not graded), read by key (one
   * BatchGetItem per 100 enrolments): a counter moved by the submission's and the grade's own transactions. Keyed
   * `<courseId>#<learnerId>`; absent: none.
   */
  pendingCounts(enrolments: readonly { courseId: string; learnerId: string }[]): Promise<Map<string, number>>;
}

/** The uploads no submission named in time (functions/data/submissions.ts), for the sweep in core/assignments/unnamed-uploads.ts. */
export interface UnnamedUploadRepository {
  /** The unnamed uploads due by `now`, earliest first, a page at a time (their sparse index; never a scan). */
  due(now: string, limit: number, cursor: string | undefined): Promise<{ items: StoredSubmissionFile[]; nextCursor: string | null }>;
  /**
   * Marks the upload as being removed, only while no submission has named it (it is still in the index): from then on
   * no submission can name it. True when it is (or already was) marked, false when a submission named it or it is gone.
   */
  claim(file: StoredSubmissionFile): Promise<boolean>;
  /** The marked upload's item deleted (nothing when it is gone already). */
  remove(file: StoredSubmissionFile): Promise<void>;
}

/** A deleted course's submissions and its learners' uploads (functions/data/submissions.ts), for the course-changed job. */
export interface CourseSubmissionRemoval {
  /** The first page of the course's submissions, every one (superseded too), by their index: those removed leave it. */
  page(courseId: string, limit: number): Promise<StoredSubmission[]>;
  /** The learner's uploads in the course, named or not (their own partition). */
  learnerUploads(courseId: string, learnerId: string): Promise<StoredSubmissionFile[]>;
  /** Every record of the learner's own partition in the course (pointers, uploads, the pending count) deleted. */
  removeLearnerRecords(courseId: string, learnerId: string): Promise<void>;
  /** The submission's item deleted (nothing when it is gone already). */
  remove(submissionId: string): Promise<void>;
}
