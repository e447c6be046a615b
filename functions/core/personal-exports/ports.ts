import type { Role } from '#contracts/common.ts';
import type { Clock, QueuedMail } from '#core/ports.ts';

/** The job's name in functions/routes.ts `jobs`: a run per export, started by POST /api/me/exports. */
export const PERSONAL_EXPORT_JOB = 'personal-export';

/**
 * Where a ZIP being written stands, as plain data (the export keeps it in its item between slices): the bytes written
 * so far, the central directory's entries of the files closed so far, and the file open now with its CRC and size so
 * far. A writer resumed from it goes on exactly where the one that saved it stopped.
 */
export interface ZipState {
  readonly offset: number;
  /** Closed files: [name, CRC-32, size, offset of the local header]. */
  readonly entries: readonly (readonly [string, number, number, number])[];
  readonly open?: { readonly name: string; readonly crc: number; readonly size: number; readonly offset: number } | undefined;
}

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
  /** How far its run went (pending only, once its upload began): saved at the end of every part and every slice. */
  readonly progress?: ExportProgress;
}

/**
 * Where the gathering stands: the step of the plan (`exportSteps`), the page cursor within it, how many records the
 * open JSON file has (its commas), the course of the comments step, the upload within a page of uploads.
 */
export interface ExportPosition {
  readonly step: number;
  readonly cursor?: string | undefined;
  readonly count: number;
  readonly index?: number | undefined;
}

/**
 * A run's state between slices (decision 0062), kept in the export's item: the multipart upload and its parts written
 * so far, the ZIP's own state (offset, directory entries, the open file's CRC and size), where the gathering goes
 * on, the courses read so far that later steps need, and the bytes written since the last part (`carry`: less than a
 * part, kept as an object of their own until the next slice, which starts its part with them).
 */
export interface ExportProgress {
  /** Saves so far: each save is conditional on the one before (a run that lost the race stops). */
  readonly version: number;
  /** The slice that saved it: a delivery of an earlier slice, come again, finds it taken and stops. */
  readonly seq: number;
  readonly uploadId: string;
  /** When the run began: the ZIP's files are dated then, the README says so. */
  readonly startedAt: string;
  readonly parts: readonly { readonly n: number; readonly etag: string }[];
  /** The carried bytes' object (named by the save that wrote it) and their length; absent: none. */
  readonly carry?: { readonly version: number; readonly bytes: number } | undefined;
  readonly zip: ZipState;
  readonly at: ExportPosition;
  readonly courseIds: readonly string[];
  readonly ownCourseIds: readonly string[];
  readonly records: number;
  readonly files: number;
  /** Every part is written: what is left is completing the upload and making the export ready. */
  readonly finished?: boolean | undefined;
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
  /**
   * The run's state saved on the pending export, on condition that the state saved last is version `progress.version
   * - 1` (none for the first): false when it was not (another delivery saved first, or the export is ready).
   */
  saveProgress(input: { userId: string; exportId: string; progress: ExportProgress }): Promise<boolean>;
}

/**
 * The ZIP's store across slices (S3 multipart, decision 0062): begun once, a part at a time (every part but the last
 * at least `minPartBytes`; a part written again under its number replaces it), completed at the end. The bytes a
 * slice ends with, short of a part, are carried to the next in an object of their own.
 */
export interface ArchiveParts {
  begin(key: string, input: { contentType: string }): Promise<string>;
  /** Part `n` of the upload: its ETag. */
  part(key: string, uploadId: string, n: number, bytes: Uint8Array): Promise<string>;
  complete(key: string, uploadId: string, parts: readonly { n: number; etag: string }[], link: { fileName: string; linkSeconds: number }): Promise<{ url: string; expiresAt: string }>;
  abort(key: string, uploadId: string): Promise<void>;
  /** The bytes carried to the next slice, kept under `key` and `version`. */
  carry(key: string, version: number, bytes: Uint8Array): Promise<void>;
  /** The bytes carried by save `version` (undefined: gone, which fails the slice). */
  carried(key: string, version: number): Promise<Uint8Array | undefined>;
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
  /**
   * The object at `key` as its chunks from byte `from` on (a file a slice ended in the middle of), or undefined when
   * it is not there (deleted, or never uploaded).
   */
  open(key: string, from?: number): Promise<AsyncIterable<Uint8Array> | undefined>;
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
  /** The ZIP's store (S3 multipart, a part at a time across slices); its link valid `linkSeconds`. */
  files: ArchiveParts;
  /** The size of a part (S3's 5 MiB, the least it takes but for the last; tests take less): a part of memory. */
  partBytes: number;
  /** The person's uploaded files, copied into the ZIP under files/. */
  uploads: UploadedFiles;
  clock: Clock;
  ids: { newId: () => string };
  /** Starts the mail sender's run for the queued email (named by `key`). */
  startSender: (key: string) => Promise<void>;
  appOrigin: string;
}
