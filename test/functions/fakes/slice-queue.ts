import { sliceIdentity } from '#core/jobs/slices.ts';
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
  /** Runs every queued slice (and what they send) with `run`; returns how many slices ran. */
  const drain = async (run: (slice: Slice) => Promise<unknown>, limit = 100_000): Promise<number> => {
    let ran = 0;
    while (queued.length > 0) {
      if (ran++ >= limit) throw new Error(`more than ${limit} slices: a chain that never ends`);
      await run(queued.shift()!);
    }
    return ran;
  };
  return { queue, drain };
};
