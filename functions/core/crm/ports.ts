/**
 * The ports only the use cases of core/crm use (docs/decisions/0029-rooms-match-the-domains.md). Adapters
 * in functions/data and functions/adapters implement them; the ports several domains share are in core/ports.ts.
 */

/**
 * An enrolment as the CRM reads it (the enrolment item's denormalised fields, docs/data-model.md). Everything but the
 * keys may be missing on old or partial items: core applies SPEC.md section 3's defaults, never the adapter.
 */
export interface CrmEnrollment {
  courseId: string;
  learnerId: string;
  enrolledAt: string;
  learnerEmail?: string;
  learnerJoinedAt?: string;
  courseTitle?: string;
  progress?: number;
  lastActivity?: string;
  completedAt?: string | null;
}

/** A creator's private note on one learner. */
export interface StoredNote {
  notes: string;
  updatedAt: string;
}

/** One event of a learner's CRM timeline (a recommendation sent). */
export interface StoredTimelineEntry {
  id: string;
  kind: 'recommendation';
  text: string;
  sentAt: string;
}

/** The creator's dashboard counters, moved by the courses and enrolment writes in their own transactions. */
export interface CreatorCounters {
  courses: number;
  students: number;
  completions: number;
  /** Certificates of the creator's courses that stand (issued, not revoked). */
  certificates: number;
}

export interface CrmRepository {
  /**
   * One page of the creator's active enrolments, newest first: one Query (gsi1 `CREATOR#<id>#LEARNERS`, or with
   * `courseId` the course's own enrolments). `cursor` is opaque; a cursor that is not one of this listing's is refused
   * (ValidationError).
   */
  learnersPage(input: { creatorId: string; courseId?: string; cursor?: string; limit: number }): Promise<{ items: CrmEnrollment[]; cursor?: string }>;
  /** The learner's active enrolments in this creator's courses (none: the learner is not the creator's). */
  learnerEnrollments(creatorId: string, learnerId: string): Promise<CrmEnrollment[]>;
  /** Who owns the course (undefined: no such course). */
  courseCreator(courseId: string): Promise<string | undefined>;
  getNote(creatorId: string, learnerId: string): Promise<StoredNote | undefined>;
  /** The notes of several learners in one read (BatchGetItem); learners without a note are absent from the map. */
  getNotes(creatorId: string, learnerIds: readonly string[]): Promise<Map<string, StoredNote>>;
  saveNote(creatorId: string, learnerId: string, note: StoredNote): Promise<void>;
  addTimelineEntry(creatorId: string, learnerId: string, entry: StoredTimelineEntry): Promise<void>;
  /** Newest first, at most `limit`. */
  timeline(creatorId: string, learnerId: string, limit: number): Promise<StoredTimelineEntry[]>;
  /**
   * How many assignment submissions of each enrolment wait for review, read by key (the counter the submission's and
   * the grade's transactions move: data/submissions.ts); keyed `<courseId>#<learnerId>`, absent: none.
   */
  pendingSubmissions(enrolments: readonly { courseId: string; learnerId: string }[]): Promise<Map<string, number>>;
  /** Zeros before the creator's first course. */
  counters(creatorId: string): Promise<CreatorCounters>;
}
