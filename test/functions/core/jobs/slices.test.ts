import { describe, expect, it } from 'vitest';
import { firstSlice, runSlice, SLICE_MARGIN_MS, throughPages, withLane } from '#core/jobs/slices.ts';
import type { Slice } from '#core/jobs/ports.ts';
import { memorySliceQueue } from '../../fakes/slice-queue.ts';

/** A listing of `n` numbered items in pages of `size`, the cursor being the index of a page's first item. */
const listing = (n: number, size: number) => async (cursor: string | undefined) => {
  const start = Number(cursor ?? 0);
  const items = Array.from({ length: Math.max(0, Math.min(size, n - start)) }, (_, i) => start + i);
  return { items, nextCursor: start + size < n ? String(start + size) : null };
};

/** A clock of work: each item costs `costMs` of a slice's `budgetMs`. */
const budget = (budgetMs: number) => {
  let left = budgetMs;
  return { spend: (ms: number) => (left -= ms), remainingMs: () => left };
};

describe('throughPages', () => {
  it('handles every item once when time never runs out, and says the listing is done', async () => {
    const seen: number[] = [];
    const result = await throughPages({ cursor: undefined, timeUp: () => false, page: listing(23, 5), handle: async (i) => void seen.push(i) });
    expect(seen).toEqual(Array.from({ length: 23 }, (_, i) => i));
    expect(result).toEqual({ cursor: undefined, handled: 23 });
  });

  it('stops when time is up and goes on from the start of the page it stopped in', async () => {
    let handled = 0;
    const result = await throughPages({ cursor: undefined, timeUp: () => handled >= 7, page: listing(20, 5), handle: async () => void handled++ });
    expect(result).toEqual({ cursor: '5', handled: 7 });
  });

  it('always handles one item, however late: a chain moves', async () => {
    const result = await throughPages({ cursor: '10', timeUp: () => true, page: listing(20, 5), handle: async () => undefined });
    expect(result).toEqual({ cursor: '10', handled: 1 });
  });

  it('handles a page with the concurrency asked for', async () => {
    let inFlight = 0;
    let most = 0;
    await throughPages({
      cursor: undefined,
      timeUp: () => false,
      page: listing(40, 20),
      concurrency: 8,
      handle: async () => {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 1));
        inFlight--;
      },
    });
    expect(most).toBe(8);
  });
});

describe('a run of slices', () => {
  it('handles every item exactly once across slices cut by the time budget, a killed slice retried included', async () => {
    const { queue, drain } = memorySliceQueue();
    const done = new Map<number, number>();
    let kills = 0;
    const runOne = async (slice: Slice) => {
      const clock = budget(SLICE_MARGIN_MS + 40);
      try {
        await runSlice({ queue, remainingMs: clock.remainingMs }, slice, async (s, timeUp) => {
          const result = await throughPages({
            cursor: s.cursor,
            timeUp,
            page: listing(1_000, 25),
            handle: async (i) => {
              // Killed in the middle of the third slice, once: the slice is delivered again from its own cursor.
              if (s.seq === 2 && kills === 0 && clock.remainingMs() < SLICE_MARGIN_MS + 20) {
                kills++;
                throw new Error('killed');
              }
              // Attempts per item: a page read again after a stop or a kill hands its done items over again, which
              // their idempotence makes no-ops; what must hold is that none is missed and few are repeated.
              done.set(i, (done.get(i) ?? 0) + 1);
              clock.spend(1);
            },
          });
          return { cursor: result.cursor, counts: { handled: result.handled } };
        });
      } catch {
        queue.queued.unshift(slice); // the visibility timeout ends: SQS delivers it again
      }
    };
    await queue.send([firstSlice('test-job', 'test-job@2026-11-30T00:00:00Z')]);
    const slices = await drain(runOne);
    expect(kills).toBe(1);
    expect(done.size).toBe(1_000);
    // Only the items of a page cut by the budget or the kill are handed over again (at most a page per slice).
    const repeated = [...done.values()].filter((count) => count > 1).length;
    expect(repeated).toBeLessThanOrEqual(slices * 25);
    // ~40 items a slice: the budget cut the run into many slices, each sent once.
    expect(slices).toBeGreaterThan(20);
    expect(queue.sentCount()).toBe(slices - 1);
  });

  it('sends a continuation twice only once (a slice retried after it sent one), and fans out into lanes', async () => {
    const { queue } = memorySliceQueue();
    const slice = firstSlice('fan', 'fan@1');
    const work = async () => ({ cursor: 'next', lanes: [{ lane: 'a', cursor: 'x' }, { lane: 'b' }], counts: { n: 1 } });
    const first = await runSlice({ queue, remainingMs: () => 60_000 }, slice, work);
    await runSlice({ queue, remainingMs: () => 60_000 }, slice, work);
    expect(first).toEqual({ counts: { n: 1 }, continued: true, lanes: 2 });
    expect(queue.queued.map((s) => `${s.lane}:${s.seq}:${s.cursor ?? ''}`)).toEqual(['main.a:0:x', 'main.b:0:', 'main:1:next']);
  });

  it('drained with lanes side by side (the memory queue, as the event source): never two slices of a lane at once, each lane in order', async () => {
    const { queue, drain } = memorySliceQueue();
    await queue.send([firstSlice('fan', 'fan@1')]);
    const running = new Map<string, number>();
    let most = 0;
    const order: string[] = [];
    const ran = await drain(
      (slice) =>
        runSlice({ queue, remainingMs: () => 60_000 }, slice, async (s) => {
          running.set(s.lane, (running.get(s.lane) ?? 0) + 1);
          most = Math.max(most, [...running.values()].reduce((a, b) => a + b, 0));
          expect(running.get(s.lane), `one slice of ${s.lane} at a time`).toBe(1);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running.set(s.lane, running.get(s.lane)! - 1);
          order.push(`${s.lane}:${s.seq}`);
          if (s.lane === 'main') return { lanes: ['a', 'b', 'c', 'd'].map((lane) => ({ lane })), counts: {} };
          return s.seq < 3 ? { cursor: String(s.seq + 1), counts: {} } : { counts: {} };
        }),
      undefined,
      3,
    );
    expect(ran).toBe(1 + 4 * 4);
    expect(most).toBe(3);
    for (const lane of ['a', 'b', 'c', 'd']) expect(order.filter((o) => o.startsWith(`main.${lane}:`))).toEqual([0, 1, 2, 3].map((seq) => `main.${lane}:${seq}`));
  });

  it('drained with lanes side by side: two slices of one lane queued together (one delivered again) run one after the other', async () => {
    const { queue, drain } = memorySliceQueue();
    const first = firstSlice('j', 'j@1');
    queue.queued.push(first, { ...first, seq: 1, cursor: 'c' }, { ...first, lane: 'main.b' });
    let atOnce = 0;
    let most = 0;
    const order: string[] = [];
    await drain(
      async (slice) => {
        most = Math.max(most, ++atOnce);
        order.push(`start ${slice.lane}:${slice.seq}`);
        await new Promise((resolve) => setTimeout(resolve, slice.lane === 'main' ? 10 : 30));
        order.push(`end ${slice.lane}:${slice.seq}`);
        atOnce--;
      },
      undefined,
      3,
    );
    expect(most).toBe(2);
    expect(order.filter((o) => o.endsWith('main:0') || o.endsWith('main:1'))).toEqual(['start main:0', 'end main:0', 'start main:1', 'end main:1']);
  });

  it('ends a lane when its work reports no cursor', async () => {
    const { queue } = memorySliceQueue();
    const result = await runSlice({ queue, remainingMs: () => 60_000 }, firstSlice('j', 'j@1'), async () => ({ counts: {} }));
    expect(result.continued).toBe(false);
    expect(queue.queued).toEqual([]);
  });
});

describe('a second work in its own lane', () => {
  it('each scheduled run does both works to their ends, the second one from its own cursor, once per run', async () => {
    const { queue, drain } = memorySliceQueue();
    const mainDone: number[] = [];
    const otherDone: number[] = [];
    const pages = (done: number[]) => async (s: Slice) => {
      const at = Number(s.cursor ?? 0);
      done.push(at);
      return { ...(at < 2 ? { cursor: String(at + 1) } : {}), counts: { n: 1 } };
    };
    const work = withLane(pages(mainDone), 'sweep', pages(otherDone));
    for (const run of ['job@1', 'job@2']) await queue.send([firstSlice('job', run)]);
    await drain((slice) => runSlice({ queue, remainingMs: () => 60_000 }, slice, work));
    expect([...mainDone].sort()).toEqual([0, 0, 1, 1, 2, 2]);
    expect([...otherDone].sort()).toEqual([0, 0, 1, 1, 2, 2]);
  });
});
