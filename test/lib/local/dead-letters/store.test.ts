import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deadLetterStore, type NewDeadLetter } from '#lib/local/dead-letters/store.ts';

const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cp-dead-letters-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const letter = (n: number, queue = 'jobs'): NewDeadLetter => ({
  queue,
  functionName: 'credit-reset',
  source: 'schedule',
  event: { n },
  error: { errorType: 'Error', errorMessage: `failure ${n}` },
  attempts: 3,
  firstAttemptAt: '2026-11-26T05:00:00.000Z',
  failedAt: '2026-11-26T05:00:03.000Z',
});

describe('the local dead-letter store', () => {
  it('keeps each queue in its own JSON-lines file under <data dir>/dead-letters/', async () => {
    const dir = dataDir();
    const store = deadLetterStore(dir);
    const stored = await store.put(letter(1));
    await store.put(letter(2, 'ses-feedback'));
    expect(store.file('jobs')).toBe(join(dir, 'dead-letters', 'jobs.jsonl'));
    const lines = readFileSync(store.file('jobs'), 'utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([{ id: stored.id, ...letter(1) }]);
    expect(await store.list('ses-feedback')).toEqual([expect.objectContaining({ event: { n: 2 } })]);
  });

  it('lists nothing for a queue that never had a dead letter', async () => {
    const store = deadLetterStore(dataDir());
    expect(await store.list('jobs')).toEqual([]);
    expect(existsSync(store.file('jobs'))).toBe(false);
  });

  it('removes one dead letter by id, once', async () => {
    const store = deadLetterStore(dataDir());
    const [a, b] = [await store.put(letter(1)), await store.put(letter(2))];
    expect(await store.remove('jobs', a.id)).toBe(true);
    expect(await store.remove('jobs', a.id)).toBe(false);
    expect((await store.list('jobs')).map((l) => l.id)).toEqual([b.id]);
  });

  it('loses no line when dead letters are added and removed at the same time', async () => {
    const store = deadLetterStore(dataDir());
    const first = await Promise.all([1, 2, 3, 4, 5].map((n) => store.put(letter(n))));
    await Promise.all([
      ...first.map((l) => store.remove('jobs', l.id)),
      ...[6, 7, 8, 9, 10].map((n) => store.put(letter(n))),
    ]);
    expect((await store.list('jobs')).map((l) => (l.event as { n: number }).n).sort((x, y) => x - y)).toEqual([6, 7, 8, 9, 10]);
    expect(existsSync(`${store.file('jobs')}.lock`)).toBe(false);
  });

  it('takes over a lock left by a process that died holding it', async () => {
    const store = deadLetterStore(dataDir(), { staleLockMs: 200 });
    await store.put(letter(1));
    const lock = `${store.file('jobs')}.lock`;
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 1_000);
    utimesSync(lock, old, old);
    await store.put(letter(2));
    expect(await store.list('jobs')).toHaveLength(2);
  });

  it('skips a line cut short by a crash, and keeps it in the file', async () => {
    const store = deadLetterStore(dataDir());
    const kept = await store.put(letter(1));
    writeFileSync(store.file('jobs'), '{"id":"cut', { flag: 'a' });
    const gone = await store.put(letter(2));
    expect((await store.list('jobs')).map((l) => l.id)).toEqual([kept.id, gone.id]);
    await store.remove('jobs', gone.id);
    expect(readFileSync(store.file('jobs'), 'utf8')).toContain('{"id":"cut');
  });

  it('refuses a queue name that is not a plain file name', async () => {
    const store = deadLetterStore(dataDir());
    expect(() => store.file('../outputs')).toThrow(/not a dead-letter queue name/);
    await expect(store.list('Jobs')).rejects.toThrow(/not a dead-letter queue name/);
  });
});
