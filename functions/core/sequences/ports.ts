import type { SequenceStep, SequenceTrigger } from '#contracts/sequences.ts';
import type { QueuedMail } from '#core/ports.ts';

/**
 * The ports only core/sequences uses (docs/decisions/0029-rooms-match-the-domains.md); functions/data/sequences.ts
 * implements them.
 */

/** A creator's sequence as stored (its counts are kept apart: SequenceRepository.stats). */
export interface StoredSequence {
  creatorId: string;
  id: string;
  name: string;
  trigger: SequenceTrigger;
  steps: SequenceStep[];
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

/**
 * One learner in one sequence for one trigger event (`event`: the trigger and the moment that makes it one event:
 * `enrolled@<enrolledAt>`, `completed@<completedAt>`, `inactive@<lastActivity>`). `step`: the next step to send;
 * `dueAt`: when it is due (null once done or left: the entry is out of the due index). `eventAt` is the moment in
 * `event`. `entered`: its first step came due while the trigger still held (what `entered` counts).
 */
export interface SequenceEntry {
  sequenceId: string;
  creatorId: string;
  courseId: string;
  learnerId: string;
  email: string;
  event: string;
  eventAt: string;
  step: number;
  dueAt: string | null;
  entered: boolean;
}

/** Why an entry left its sequence (kept on it for support). */
export type LeaveReason = 'done' | 'off' | 'removed' | 'returned' | 'unsubscribed' | 'gone';

export interface SequenceCounts {
  entered: number;
  /** Emails sent per step index (a step never sent is absent). */
  sent: Record<string, number>;
  unsubscribed: number;
}

export interface SequenceRepository {
  list(creatorId: string): Promise<StoredSequence[]>;
  get(creatorId: string, sequenceId: string): Promise<StoredSequence | undefined>;
  /** A new sequence, unless the creator holds `max` already ('limit'). */
  create(sequence: StoredSequence, max: number): Promise<'created' | 'limit'>;
  /** Replaces the sequence's settings (never its counts); false when it is gone. */
  save(sequence: StoredSequence): Promise<boolean>;
  /** The sequence and its counts go (its entries find it gone and leave); false when it was not there. */
  remove(creatorId: string, sequenceId: string): Promise<boolean>;
  stats(creatorId: string, sequenceId: string): Promise<SequenceCounts>;
}

/** The key of an entry (its sequence, course, learner and event). */
export type EntryRef = Pick<SequenceEntry, 'sequenceId' | 'courseId' | 'learnerId' | 'event'>;

export interface SequenceEntryRepository {
  /** Puts the entry unless one for the same event is there (a trigger seen twice enters once): true when new. */
  enter(entry: SequenceEntry): Promise<boolean>;
  /** Takes out a waiting entry of an earlier event that never entered (an inactive learner came back before it was due). */
  dropWaiting(ref: EntryRef): Promise<void>;
  /** Entries due by `now`, earliest first, a page at a time. */
  due(now: string, limit: number, cursor?: string): Promise<{ items: SequenceEntry[]; nextCursor: string | null }>;
  /** The entry as it is now (a consistent read). */
  get(ref: EntryRef): Promise<SequenceEntry | undefined>;
  /**
   * One step sent: in one transaction, only while the entry is still at `entry.step` and `entry.dueAt` (so a step goes
   * once, whatever runs twice): the entry moves to the next step (or out of the due index when `nextDueAt` is null),
   * the email is put in the mail queue, the sequence's counts move. False when another run moved the entry first.
   */
  advance(entry: SequenceEntry, next: { nextDueAt: string | null; mail: QueuedMail; entered: boolean }): Promise<boolean>;
  /** The entry leaves (out of the due index), conditional on it as read; `unsubscribed` is counted on the sequence. */
  leave(entry: SequenceEntry, reason: LeaveReason, at: string): Promise<boolean>;
}

/** A creator's marketing mail refused by a learner (the unsubscribe link of a sequence's email). */
export interface SchoolUnsubscribes {
  unsubscribe(creatorId: string, email: string, at: string): Promise<void>;
  /** The addresses among these (lower-case) that unsubscribed from the creator's mail. */
  unsubscribed(creatorId: string, emails: readonly string[]): Promise<Set<string>>;
}
