import { firstSlice, runSlice, SLICE_MARGIN_MS, type SliceWork } from '#core/jobs/slices.ts';
import type { Slice } from '#core/jobs/ports.ts';
import { memorySliceQueue } from './slice-queue.ts';

const KILLED = 'killed mid-slice (test)';

/**
 * A whole sliced run on the memory queue (as runToEnd), with a budget counted in items and kills:
 * - `itemsPerSlice`: the work's `timeUp()` says yes at its nth check of a slice (a job checks before each item but its
 *   first), so a run is cut into many slices whatever the machine's speed;
 * - `kill`: the slices of the lane named (each lane's slice `seq` of that lane, once) die at their `afterChecks`th
 *   check of the time, after some of their items were done and before their continuation is sent: the queue delivers
 *   them again (as SQS after the visibility timeout) and they start again from their own cursor;
 * - `lanesAtOnce`: slices of different lanes run side by side, up to this many, as the job queue's event source runs them
 *   (its `maxConcurrency`: lib/constructs/job-queue-names.ts); one slice at a time unless given.
 * Returns the counts summed over the slices that finished (a killed slice's are lost with it, as in a real kill), how
 * many slices ran and how many were killed. Tests assert what the run did to the data: every item done exactly once.
 */
export const runSliced = async <C extends Record<string, number>>(
  job: string,
  work: (remainingMs: () => number) => SliceWork<C>,
  opts: {
    itemsPerSlice?: number;
    sliceMs?: number;
    kill?: { seq: number; afterChecks: number; lanes?: (lane: string) => boolean };
    /** Deliveries of a slice that failed (threw) again, as SQS after its visibility timeout, before the error is the run's (its dead-letter queue). */
    redeliver?: number;
    input?: Slice['input'];
    run?: string;
    lanesAtOnce?: number;
  } = {},
): Promise<{ counts: Record<string, number>; slices: number; kills: number; lanes: Set<string> }> => {
  const { queue, drain } = memorySliceQueue();
  const counts: Record<string, number> = {};
  const killed = new Set<string>();
  const lanes = new Set<string>();
  const failures = new Map<string, number>();
  await queue.send([firstSlice(job, opts.run ?? `${job}@${new Date().toISOString()}`, opts.input)]);
  const slices = await drain(async (slice) => {
    lanes.add(slice.lane);
    const ends = Date.now() + SLICE_MARGIN_MS + (opts.sliceMs ?? 60_000);
    const remainingMs = () => ends - Date.now();
    const kill = opts.kill && slice.seq === opts.kill.seq && (opts.kill.lanes ?? ((lane) => lane === 'main'))(slice.lane) && !killed.has(slice.lane) ? opts.kill : undefined;
    let checks = 0;
    const sliceWork: SliceWork<C> = (s, timeUp) =>
      work(remainingMs)(s, () => {
        checks += 1;
        if (kill && checks >= kill.afterChecks) {
          killed.add(slice.lane);
          throw new Error(KILLED);
        }
        return (opts.itemsPerSlice !== undefined && checks >= opts.itemsPerSlice) || timeUp();
      });
    try {
      const result = await runSlice({ queue, remainingMs }, slice, sliceWork);
      for (const [key, value] of Object.entries(result.counts)) counts[key] = (counts[key] ?? 0) + value;
    } catch (error) {
      if ((error as Error).message !== KILLED) {
        const id = `${slice.lane}/${slice.seq}`;
        failures.set(id, (failures.get(id) ?? 0) + 1);
        if (failures.get(id)! > (opts.redeliver ?? 0)) throw error;
      }
      queue.queued.push(slice); // its visibility timeout ends: delivered again
    }
  }, undefined, opts.lanesAtOnce);
  return { counts, slices, kills: killed.size, lanes };
};
