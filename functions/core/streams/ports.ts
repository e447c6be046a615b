/**
 * Ports of the stream aggregator (core/streams/aggregate.ts, docs/decisions/0040-stream-aggregator.md): the counters
 * that many writers move are not written in the writers' transactions but from the table's stream, a batch at a time.
 */

/** One change of the table as its stream delivers it: the item's old and new images (absent: created / removed). */
export interface StreamChange {
  /** The record's sequence number in its stream shard (digits; increasing within the shard). */
  readonly sequence: string;
  readonly oldImage?: Readonly<Record<string, unknown>>;
  readonly newImage?: Readonly<Record<string, unknown>>;
}

/** An order's move on its creator's sales counters (the month's and the day's shards): what the order's writes did before. */
export interface SalesMove {
  readonly kind: 'sales';
  readonly order: { readonly id: string; readonly creatorId: string; readonly courseId: string; readonly couponCode: string | null };
  /** When it counts (the payment's or the reversal's time): the month and day it lands on. */
  readonly at: string;
  readonly move: { readonly revenue: number; readonly sales: number; readonly discount: number; readonly refunds: number };
}

/**
 * An enrolment's move on the counters of active enrolments and completions: the course's enrolled count, the
 * creator's stats and the platform's figures (each on the shard the learner's id picks).
 */
export interface EnrolmentMove {
  readonly kind: 'enrolment';
  readonly courseId: string;
  readonly creatorId: string;
  readonly learnerId: string;
  /** Active enrolments: +1, -1 or 0. */
  readonly students: number;
  /** Active enrolments with a completion: +1, -1 or 0. */
  readonly completions: number;
  /** Whether the course's enrolled count moves too (not for an enrolment deleted with its course). */
  readonly courseCount: boolean;
}

export type CounterMove = SalesMove | EnrolmentMove;

/** The counter moves of one stream record, in stream order. */
export interface CountedChange {
  readonly sequence: string;
  readonly moves: readonly CounterMove[];
}

export interface StreamCounters {
  /**
   * Applies the moves of a shard's changes (in stream order) exactly once: the changes up to the shard's checkpoint are
   * skipped, the rest applied in transactions that ADD each counter item once and move the checkpoint. A change is
   * never applied twice, whatever replays; when a transaction fails, `StreamApplyError.from` names the first change not
   * applied (everything before it is).
   */
  apply(shardId: string, changes: readonly CountedChange[]): Promise<{ readonly applied: number; readonly skipped: number; readonly transactions: number }>;
}

/** A failure part-way through a batch: the changes from `from` (a sequence number) on were not applied. */
export class StreamApplyError extends Error {
  constructor(
    readonly from: string,
    override readonly cause: unknown,
  ) {
    super(`stream changes from ${from} not applied: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'StreamApplyError';
  }
}
