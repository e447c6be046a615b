import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { redrive } from '#lib/local/dead-letters/redrive.ts';
import { deadLetterStore, type NewDeadLetter } from '#lib/local/dead-letters/store.ts';
import type { Handler } from '#lib/local/handlers.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const letter = (functionName: string, n: number): NewDeadLetter => ({
  queue: 'jobs',
  functionName,
  source: 'schedule',
  event: { n },
  error: { errorType: 'Error', errorMessage: 'database unreachable' },
  attempts: 3,
  firstAttemptAt: '2026-11-26T05:00:00.000Z',
  failedAt: '2026-11-26T05:00:03.000Z',
});

/** A store holding three dead letters of the jobs queue, and handlers that record what they were given. */
const setup = async (opts: { failing?: (event: unknown) => boolean } = {}) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cp-redrive-'));
  dirs.push(dataDir);
  const store = deadLetterStore(dataDir);
  for (const [name, n] of [['credit-reset', 1], ['campaign-sender', 2], ['credit-reset', 3]] as const) await store.put(letter(name, n));
  const replayed: { module: string; event: unknown; functionName: string }[] = [];
  const load = async (module: string): Promise<Handler> => async (event, context) => {
    if (opts.failing?.(event)) throw new Error('still unreachable');
    replayed.push({ module, event, functionName: context.functionName });
    return {};
  };
  const modules = new Map([
    ['credit-reset', 'jobs/credit-reset'],
    ['campaign-sender', 'jobs/campaign-sender'],
  ]);
  const lines: string[] = [];
  const run = (dryRun = false) => redrive({ store, queue: 'jobs', dryRun, modules, load, log: (line) => lines.push(line) });
  return { store, replayed, run, lines };
};

describe('npm run redrive', () => {
  it('replays each dead letter with its own function and event, oldest first, and empties the queue', async () => {
    const { store, replayed, run } = await setup();
    const result = await run();
    expect(replayed).toEqual([
      { module: 'jobs/credit-reset', functionName: 'credit-reset', event: { n: 1 } },
      { module: 'jobs/campaign-sender', functionName: 'campaign-sender', event: { n: 2 } },
      { module: 'jobs/credit-reset', functionName: 'credit-reset', event: { n: 3 } },
    ]);
    expect(result.replayed).toHaveLength(3);
    expect(await store.list('jobs')).toEqual([]);
  });

  it('changes nothing in a dry run, and says what it would replay', async () => {
    const { store, replayed, run, lines } = await setup();
    const before = readFileSync(store.file('jobs'), 'utf8');
    const result = await run(true);
    expect(replayed).toEqual([]);
    expect(result.replayed.map((l) => l.event)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(readFileSync(store.file('jobs'), 'utf8')).toBe(before);
    expect(lines.filter((l) => l.startsWith('would replay '))).toHaveLength(3);
    expect(lines.at(-1)).toContain('dry run: nothing changed');
  });

  it('keeps a dead letter whose replay fails again, and removes the others', async () => {
    const { store, run } = await setup({ failing: (event) => (event as { n: number }).n === 2 });
    const result = await run();
    expect(result.failed.map((l) => l.event)).toEqual([{ n: 2 }]);
    expect((await store.list('jobs')).map((l) => l.event)).toEqual([{ n: 2 }]);
  });

  it('keeps a dead letter of a function this checkout does not have', async () => {
    const { store, run } = await setup();
    await store.put(letter('retired-job', 4));
    const result = await run();
    expect(result.unknown.map((l) => l.functionName)).toEqual(['retired-job']);
    expect((await store.list('jobs')).map((l) => l.functionName)).toEqual(['retired-job']);
  });

  it('says so when there is nothing to replay', async () => {
    const { run, lines } = await setup();
    await run();
    lines.length = 0;
    const result = await run();
    expect(result.replayed).toEqual([]);
    expect(lines).toEqual([expect.stringMatching(/^No dead letters in .*jobs\.jsonl\.$/)]);
  });
});
