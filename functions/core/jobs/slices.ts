import type { Slice, SliceQueue } from '#core/jobs/ports.ts';

/**
 * The job engine (docs/decisions/0032-jobs-in-slices.md): a job's run is a chain of slices, each one message on the
 * job's own SQS FIFO queue, each one Lambda invocation. A slice works while its function has time left (checked
 * before each item), then sends its continuation (the same lane, seq + 1, where it stopped) and any lanes it fans
 * out into, and ends. A slice killed at any point is delivered again after the queue's visibility timeout and starts
 * again from its own cursor: every item must be idempotent (a conditional write, a claim), so an item done twice
 * changes nothing, and the continuation it sends again carries the same identity, which the queue drops.
 */

/** Time kept back at the end of a slice: the item in hand, the continuation sent, the answer to the event source. */
export const SLICE_MARGIN_MS = 5_000;

/** The identity the queue deduplicates a slice by (at most 128 characters of [A-Za-z0-9_.@#/-] once hashed by the adapter). */
export const sliceIdentity = (slice: Pick<Slice, 'run' | 'lane' | 'seq'>): string => `${slice.run}/${slice.lane}/${slice.seq}`;

/** A run's first slice: lane 'main', seq 0. */
export const firstSlice = (job: string, run: string, input?: Slice['input']): Slice => ({ job, run, lane: 'main', seq: 0, ...(input ? { input } : {}) });

/** What a slice's work reports: where its lane goes on (absent: the lane is done), the lanes it opens, its counts. */
export interface SliceOutcome<C extends Record<string, number> = Record<string, number>> {
  readonly cursor?: string | undefined;
  /** New lanes of the run, each from its own cursor and input (their `seq` starts at 0). */
  readonly lanes?: readonly { readonly lane: string; readonly cursor?: string; readonly input?: Slice['input'] }[];
  readonly counts: C;
}

/** A job's work on one slice: `timeUp()` says when to stop (checked before each item). */
export type SliceWork<C extends Record<string, number>> = (slice: Slice, timeUp: () => boolean) => Promise<SliceOutcome<C>>;

export interface SliceDeps {
  queue: SliceQueue;
  /** Milliseconds left in this invocation (Lambda's getRemainingTimeInMillis). */
  remainingMs: () => number;
}

/** Runs one slice and sends what follows it. Resolves with the work's counts and whether its lane continues. */
export const runSlice = async <C extends Record<string, number>>(
  deps: SliceDeps,
  slice: Slice,
  work: SliceWork<C>,
): Promise<{ counts: C; continued: boolean; lanes: number }> => {
  const outcome = await work(slice, () => deps.remainingMs() < SLICE_MARGIN_MS);
  const next: Slice[] = (outcome.lanes ?? []).map((lane) => ({
    job: slice.job,
    run: slice.run,
    lane: `${slice.lane}.${lane.lane}`,
    seq: 0,
    ...(lane.cursor !== undefined ? { cursor: lane.cursor } : {}),
    ...(lane.input ?? slice.input ? { input: lane.input ?? slice.input } : {}),
  }));
  if (outcome.cursor !== undefined) next.push({ ...slice, seq: slice.seq + 1, cursor: outcome.cursor });
  if (next.length > 0) await deps.queue.send(next);
  return { counts: outcome.counts, continued: outcome.cursor !== undefined, lanes: outcome.lanes?.length ?? 0 };
};

/** One page of a listing: its items and the cursor of the page after it (absent or null: the last page). */
export interface Page<T> {
  readonly items: readonly T[];
  readonly nextCursor?: string | null | undefined;
}

/**
 * The common work of a slice: pages from `cursor`, each item handled in turn (up to `concurrency` at once) while
 * time remains. Stopping inside a page, the slice's cursor is that page's own start: the next slice reads it again and
 * finds the items already handled done (their idempotence makes them cheap no-ops), so nothing is skipped even when a
 * handled item left the listing meanwhile. Returns the cursor to go on from (undefined: the listing is done) and how
 * many items were handled.
 */
export const throughPages = async <T>(opts: {
  cursor: string | undefined;
  timeUp: () => boolean;
  page: (cursor: string | undefined) => Promise<Page<T>>;
  handle: (item: T) => Promise<void>;
  concurrency?: number;
}): Promise<{ cursor: string | undefined; handled: number }> => {
  const concurrency = Math.max(1, opts.concurrency ?? 1);
  let cursor = opts.cursor;
  let handled = 0;
  for (;;) {
    if (handled > 0 && opts.timeUp()) return { cursor: cursor ?? '', handled };
    const page = await opts.page(cursor || undefined);
    let next = 0;
    let stopped = false;
    const worker = async () => {
      while (next < page.items.length) {
        // At least one item per slice, whatever the clock says: a chain always moves.
        if (handled > 0 && opts.timeUp()) {
          stopped = true;
          return;
        }
        const item = page.items[next++]!;
        await opts.handle(item);
        handled++;
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, page.items.length) }, worker));
    if (stopped) return { cursor: cursor ?? '', handled };
    if (!page.nextCursor) return { cursor: undefined, handled };
    cursor = page.nextCursor;
  }
};

/**
 * A second, unrelated work carried by a job that already runs on a schedule (no function, queue and schedule more):
 * each run's first slice opens the lane `lane` for `other`, which then goes on from its own cursor beside the run's
 * own work, so neither waits for the other and either's failure is retried alone.
 */
export const withLane =
  <A extends Record<string, number>, B extends Record<string, number>>(main: SliceWork<A>, lane: string, other: SliceWork<B>): SliceWork<Record<string, number>> =>
  async (slice, timeUp): Promise<SliceOutcome<Record<string, number>>> => {
    if (slice.lane.split('.').at(-1) === lane) return other(slice, timeUp);
    const outcome = await main(slice, timeUp);
    return slice.lane === 'main' && slice.seq === 0 ? { ...outcome, lanes: [...(outcome.lanes ?? []), { lane }] } : outcome;
  };
