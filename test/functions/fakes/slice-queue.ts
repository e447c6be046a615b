import { firstSlice, runSlice, SLICE_MARGIN_MS, sliceIdentity, type SliceWork } from '#core/jobs/slices.ts';
import type { Slice, SliceQueue } from '#core/jobs/ports.ts';

/**
 * The job engine's queue in memory, with the FIFO queue's deduplication (a slice whose identity was sent is dropped):
 * `drain` runs what is queued, slice after slice, as the SQS event source would, until nothing is left.
 */
export const memorySliceQueue = () => {
  const sent = new Set<string>();
  const queued: Slice[] = [];
  const queue: SliceQueue & { queued: Slice[]; sentCount: () => number } = {
    queued,
    sentCount: () => sent.size,
    async send(slices) {
      for (const slice of slices) {
        const id = sliceIdentity(slice);
        if (sent.has(id)) continue;
        sent.add(id);
        queued.push(slice);
      }
    },
  };
  /**
   * Runs every queued slice (and what they send) with `run`; returns how many slices ran. One at a time, or up to
   * `lanesAtOnce` slices of different lanes at once, as the FIFO queue's message groups deliver them (a lane's slices
   * one after the other, in order); the first failure is the drain's, once the slices running have ended.
   */
  const drain = async (run: (slice: Slice) => Promise<unknown>, limit = 100_000, lanesAtOnce = 1): Promise<number> => {
    let ran = 0;
    const laneOf = (slice: Slice) => `${slice.run}/${slice.lane}`;
    const busy = new Set<string>();
    const running = new Set<Promise<void>>();
    let failed: { error: unknown } | undefined;
    for (;;) {
      const next = failed || running.size >= lanesAtOnce ? -1 : queued.findIndex((slice) => !busy.has(laneOf(slice)));
      if (next >= 0) {
        if (ran++ >= limit) failed ??= { error: new Error(`more than ${limit} slices: a chain that never ends`) };
        else {
          const [slice] = queued.splice(next, 1) as [Slice];
          busy.add(laneOf(slice));
          const one: Promise<void> = run(slice)
            .then(
              () => undefined,
              (error: unknown) => void (failed ??= { error }),
            )
            .then(() => {
              busy.delete(laneOf(slice));
              running.delete(one);
            });
          running.add(one);
        }
        continue;
      }
      if (running.size === 0) break;
      await Promise.race(running);
    }
    if (failed) throw failed.error;
    return ran;
  };
  return { queue, drain };
};

/**
 * A whole run of a sliced job in this process, its slices on the memory queue: `work` as the job module exports it
 * (`(remainingMs) => SliceWork`), each slice given `sliceMs` of time (short: many slices). Returns the counts summed
 * over the slices and how many ran. Tests of a job's work use it; the engine's integration test proves the same work
 * through the SQS stand-in and its event source.
 */
export const runToEnd = async <C extends Record<string, number>>(
  job: string,
  work: (remainingMs: () => number) => SliceWork<C>,
  opts: { input?: Slice['input']; sliceMs?: number; run?: string } = {},
): Promise<{ counts: Record<string, number>; slices: number }> => {
  const { queue, drain } = memorySliceQueue();
  const counts: Record<string, number> = {};
  await queue.send([firstSlice(job, opts.run ?? `${job}@${new Date().toISOString()}`, opts.input)]);
  const slices = await drain(async (slice) => {
    const ends = Date.now() + SLICE_MARGIN_MS + (opts.sliceMs ?? 60_000);
    const remainingMs = () => ends - Date.now();
    const result = await runSlice({ queue, remainingMs }, slice, work(remainingMs));
    for (const [key, value] of Object.entries(result.counts)) counts[key] = (counts[key] ?? 0) + value;
  });
  return { counts, slices };
};
