import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * One asynchronous invocation given up on: what Lambda's on-failure record holds in the cloud (the function, the event,
 * the last error, the attempts), one JSON object per line of `<data dir>/dead-letters/<queue>.jsonl`.
 */
export interface DeadLetter {
  readonly id: string;
  readonly queue: string;
  /** The function's name in functions/routes.ts (a job, an event handler). */
  readonly functionName: string;
  /**
   * What started it: its schedule, an asynchronous Lambda invoke (InvocationType Event), or its job queue (a slice the
   * SQS event source gave up on; the event is the SQS event of that one message).
   */
  readonly source: 'schedule' | 'async-invoke' | 'sqs';
  readonly event: unknown;
  /** The last attempt's error, as Lambda reports an unhandled one. */
  readonly error: { readonly errorType: string; readonly errorMessage: string };
  readonly attempts: number;
  readonly firstAttemptAt: string;
  readonly failedAt: string;
}

export type NewDeadLetter = Omit<DeadLetter, 'id'>;

export interface DeadLetterStore {
  /** The file of a queue (it may not exist yet). */
  file(queue: string): string;
  put(letter: NewDeadLetter): Promise<DeadLetter>;
  /** The queue's dead letters, oldest first (none when the file does not exist). */
  list(queue: string): Promise<DeadLetter[]>;
  /** Removes one dead letter; false when it was not there (already re-driven). */
  remove(queue: string, id: string): Promise<boolean>;
}

/** Queue names are file names: lower-case words and dashes only (`jobs`, `ses-feedback`). */
const queueName = /^[a-z0-9][a-z0-9-]*$/;

export const deadLettersDir = (dataDir: string): string => join(dataDir, 'dead-letters');

/**
 * The local dead-letter store: a JSON-lines file per queue. Appends and removals take a lock file (`<file>.lock`), so
 * the local cloud adding a dead letter and `npm run redrive` (another process) removing one never lose each other's
 * lines; a lock older than `staleLockMs` (a process killed while holding it) is taken over.
 */
export const deadLetterStore = (dataDir: string, opts: { staleLockMs?: number } = {}): DeadLetterStore => {
  const dir = deadLettersDir(dataDir);
  const staleLockMs = opts.staleLockMs ?? 10_000;
  const file = (queue: string) => {
    if (!queueName.test(queue)) throw new Error(`"${queue}" is not a dead-letter queue name (lower-case letters, digits and dashes)`);
    return join(dir, `${queue}.jsonl`);
  };

  const locked = async <T>(path: string, work: () => Promise<T>): Promise<T> => {
    await mkdir(dir, { recursive: true });
    const lock = `${path}.lock`;
    const deadline = Date.now() + 2 * staleLockMs;
    for (;;) {
      try {
        const handle = await open(lock, 'wx');
        await handle.close();
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const age = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0);
        if (age > staleLockMs) await unlink(lock).catch(() => undefined);
        else if (Date.now() > deadline) throw new Error(`${lock} is held by another process`, { cause: error });
        else await sleep(20);
      }
    }
    try {
      return await work();
    } finally {
      await unlink(lock).catch(() => undefined);
    }
  };

  const lines = async (path: string): Promise<string[]> => {
    const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '';
      throw error;
    });
    return text.split('\n').filter((line) => line.trim() !== '');
  };
  const parse = (line: string): DeadLetter | undefined => {
    try {
      const letter = JSON.parse(line) as DeadLetter;
      return typeof letter.id === 'string' ? letter : undefined;
    } catch {
      return undefined; // a line cut short by a crash: kept in the file, never replayed
    }
  };

  return {
    file,
    put: async (letter) => {
      const stored: DeadLetter = { id: randomUUID(), ...letter };
      const path = file(letter.queue);
      await locked(path, async () => {
        // After a line cut short by a crash, a new line of its own: the cut one stays unreadable, this one does not.
        const cut = !(await endsWithNewline(path));
        await writeFile(path, `${cut ? '\n' : ''}${JSON.stringify(stored)}\n`, { flag: 'a' });
      });
      return stored;
    },
    list: async (queue) => (await lines(file(queue))).flatMap((line) => parse(line) ?? []),
    remove: async (queue, id) => {
      const path = file(queue);
      return locked(path, async () => {
        const all = await lines(path);
        const kept = all.filter((line) => parse(line)?.id !== id);
        if (kept.length === all.length) return false;
        // A whole new file, then a rename: a reader never sees half of it.
        const next = `${path}.${process.pid}.tmp`;
        await writeFile(next, kept.map((line) => `${line}\n`).join(''));
        await rename(next, path);
        return true;
      });
    },
  };
};

/** True for a file that is empty, missing or ends with a newline. */
const endsWithNewline = async (path: string): Promise<boolean> => {
  const handle = await open(path, 'r').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!handle) return true;
  try {
    const { size } = await handle.stat();
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    await handle.close();
  }
};
