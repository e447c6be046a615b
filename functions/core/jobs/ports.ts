/** Ports of the job engine (core/jobs/slices.ts): a job's run as a chain of slices on the job's own queue. */

/**
 * One slice of a job's run, as it travels on the job's queue (the message body, JSON). The queue deduplicates by
 * `run`/`lane`/`seq` (sliceIdentity), so a slice retried after a kill sends the same continuation, which the queue
 * drops: a chain never forks.
 */
export interface Slice {
  /** The job (its name in functions/routes.ts `jobs`). */
  readonly job: string;
  /**
   * The run it belongs to: unique per start (`<job>@<the schedule's time>`, `course-changed@<courseId>@<version>`),
   * so a double delivery of the same start is one run.
   */
  readonly run: string;
  /**
   * A lane of the run: lanes go on in parallel (the queue's message group), each a chain of its own; a run starts in
   * lane 'main' and fans out into more where its work divides (a page of leaders, one licence's seats).
   */
  readonly lane: string;
  /** Its place in its lane: the continuation of slice n is n + 1. */
  readonly seq: number;
  /** Where it starts, opaque to all but the job's own work; absent: from the beginning. */
  readonly cursor?: string;
  /** What the run is about, for a run started by a change (the course renamed, the campaign queued). */
  readonly input?: Readonly<Record<string, unknown>>;
}

export interface SliceQueue {
  /**
   * Sends slices to their job's queue (one batch call per 10): each is delivered at least once and, for the queue's
   * deduplication window (5 minutes), at most once per identity.
   */
  send(slices: readonly Slice[]): Promise<void>;
}
