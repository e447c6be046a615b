import type { Role } from '#contracts/common.ts';
import type { ArchiveFiles, Clock, QueuedMail } from '#core/ports.ts';

/** The job's name in functions/routes.ts `jobs`: a run per export, started by POST /api/me/exports. */
export const PERSONAL_EXPORT_JOB = 'personal-export';

/** One export of a person's data: pending while the job gathers it, ready once the ZIP is written and the email queued. */
export interface PersonalExport {
  readonly exportId: string;
  readonly userId: string;
  readonly status: 'pending' | 'ready';
  readonly requestedAt: string;
  /** When the ZIP was written (ready only). */
  readonly readyAt?: string;
  /** When the emailed link stops working (ready only): the export reads as expired from then. */
  readonly linkExpiresAt?: string;
}

export interface PersonalExportStore {
  /**
   * A new pending export `exportId` for `userId`, unless one is pending already (requested after `staleBefore`):
   * answers the pending export's id, new or not. One at a time per user, under concurrent requests too.
   */
  request(input: { userId: string; exportId: string; requestedAt: string; staleBefore: string }): Promise<string>;
  /** The user's export (never another user's: the key holds the user). */
  get(userId: string, exportId: string): Promise<PersonalExport | undefined>;
  /**
   * Pending -> ready with `mail` queued in the same transaction (so the email goes exactly once, however often the job
   * runs): false when it was not pending (a run before this one finished it).
   */
  markReady(input: { userId: string; exportId: string; readyAt: string; linkExpiresAt: string; mail: QueuedMail }): Promise<boolean>;
}

/** A record as exported: the item's own attributes, the table's keys left out. */
export type ExportedRecord = Readonly<Record<string, unknown>>;

/**
 * Where a person's records are, each read by key or index (DATA.md: never a scan), a page at a time:
 * - `account`: the user's own partition (`USER#<id>`): profile, learner and public profiles, leader settings,
 *   subscription, credits and their ledger, study days, exports;
 * - `enrolments`: the learner's active enrolments (their progress on them), by the learner's courses index;
 * - `left-enrolments`: the enrolments removed since (a refund, a revoked seat, a membership that ended, the creator's
 *   removal: the courses they left, with the progress kept on them), by the same index's partition of those;
 * - `quiz-attempts`: the learner's attempts in one course (the course's partition, the learner's prefix);
 * - `certificates`: the learner's current certificates, by the learner's certificates index;
 * - `courses`, `crm`, `support-requests`: a creator's courses, the CRM's rows (their learners' enrolments) and their
 *   support requests, by the creator's indexes;
 * - `submissions`: every submission of the learner's in one course, the superseded ones too, each marked
 *   `superseded` (the course's submissions index, the learner's together: `<learnerId>#` first in its sort key);
 * - `submission-files`: the learner's uploads in one course (the same partition: only their ids find them);
 * - `orders`: the orders naming the person's email as their buyer (the buyer index), whatever became of what they
 *   bought (a refunded course's enrolment is gone), each as the buyer's record of it: no Stripe ids;
 * - `lessons`, `lesson-threads`, `thread-replies`: a course's lesson ids, a lesson's threads, a thread's replies: the
 *   discussions a person took part in, read whole by their keys and kept to the person's own comments by the job
 *   (no index of comments by author exists: see docs/api.md "Download my data").
 */
export type RecordSource =
  | { readonly kind: 'account'; readonly userId: string }
  | { readonly kind: 'enrolments' | 'left-enrolments'; readonly learnerId: string }
  | { readonly kind: 'quiz-attempts'; readonly courseId: string; readonly learnerId: string }
  | { readonly kind: 'certificates'; readonly learnerId: string }
  | { readonly kind: 'courses' | 'crm' | 'support-requests'; readonly creatorId: string }
  | { readonly kind: 'submissions' | 'submission-files'; readonly courseId: string; readonly learnerId: string }
  | { readonly kind: 'orders'; readonly buyerEmail: string }
  | { readonly kind: 'lessons'; readonly courseId: string }
  | { readonly kind: 'lesson-threads'; readonly courseId: string; readonly lessonId: string }
  | { readonly kind: 'thread-replies'; readonly threadId: string };

/** The bytes of a person's uploaded files (the files bucket), read as a stream: never a whole file in memory. */
export interface UploadedFiles {
  /** The object at `key` as its chunks, or undefined when it is not there (deleted, or never uploaded). */
  open(key: string): Promise<AsyncIterable<Uint8Array> | undefined>;
}

export interface PersonalRecords {
  /** The user's role and email, or undefined for an account that is gone. */
  person(userId: string): Promise<{ role: Role; email: string } | undefined>;
  /** One page of `source` from `cursor` (absent: the first page). */
  page(source: RecordSource, cursor: string | undefined): Promise<{ items: readonly ExportedRecord[]; nextCursor?: string | null }>;
}

export interface PersonalExportDeps {
  exports: PersonalExportStore;
  records: PersonalRecords;
  /** The ZIP's store (S3 multipart); its link valid `linkSeconds`. */
  files: ArchiveFiles;
  /** The person's uploaded files, copied into the ZIP under files/. */
  uploads: UploadedFiles;
  clock: Clock;
  ids: { newId: () => string };
  /** Starts the mail sender's run for the queued email (named by `key`). */
  startSender: (key: string) => Promise<void>;
  appOrigin: string;
}
