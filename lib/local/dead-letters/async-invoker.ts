import { isAbsolute, relative } from 'node:path';
import { asyncRetries, localRetryDelaysMs } from '../../constructs/async-retries.ts';
import { lambdaError } from '../handlers.ts';
import type { DeadLetter, DeadLetterStore } from './store.ts';

/** Retries after a failed first attempt, and the wait before each (the last wait repeats if there are more retries). */
export interface RetryPolicy {
  readonly retries: number;
  readonly delaysMs: readonly number[];
}

/** Lambda's retries of an asynchronous invocation (lib/constructs/async-retries.ts), seconds apart instead of minutes. */
export const localRetryPolicy: RetryPolicy = { retries: asyncRetries.jobs.retryAttempts, delaysMs: localRetryDelaysMs };

export interface AsyncInvocation {
  /** Where its dead letter goes (lib/constructs/async-retries.ts `deadLetterQueues`). */
  readonly queue: string;
  readonly functionName: string;
  readonly source: DeadLetter['source'];
  readonly event: unknown;
  /** The start of its log lines: `[scheduler] credit-reset`. */
  readonly label: string;
  /** One run of the function with the event: resolves when it succeeded, rejects with its error. */
  readonly attempt: () => Promise<unknown>;
}

/** A run that succeeded (on its first attempt or a retry), or the dead letter it left (none if the store failed). */
export type AsyncOutcome = { readonly ok: true; readonly attempts: number } | { readonly ok: false; readonly letter: DeadLetter | undefined };

export interface AsyncInvoker {
  readonly retryPolicy: RetryPolicy;
  /** Runs an invocation as Lambda runs an asynchronous one: retried, then a dead letter. Never rejects. */
  run(invocation: AsyncInvocation): Promise<AsyncOutcome>;
  /**
   * Stops waiting: a retry still to come is given up at once (its event becomes a dead letter now, rather than being
   * lost with the process), and the runs in flight are awaited.
   */
  stop(): Promise<void>;
}

/**
 * The local Lambda service's asynchronous invocations (the scheduler's runs, `InvocationType: Event` invokes): each
 * failed attempt is logged; after the policy's retries the event lands in the dead-letter store, and the log line says
 * which file and how to re-drive it.
 */
export const asyncInvoker = (opts: {
  store: DeadLetterStore;
  log: (line: string) => void;
  retryPolicy?: RetryPolicy;
}): AsyncInvoker => {
  const retryPolicy = opts.retryPolicy ?? localRetryPolicy;
  const inFlight = new Set<Promise<AsyncOutcome>>();
  const waits = new Set<() => void>();
  let stopping = false;

  /** Waits `ms`, or less if the invoker stops meanwhile; true when it waited the whole time. */
  const wait = (ms: number) =>
    new Promise<boolean>((resolve) => {
      if (stopping) return resolve(false);
      const cut = () => {
        clearTimeout(timer);
        waits.delete(cut);
        resolve(false);
      };
      const timer = setTimeout(() => {
        waits.delete(cut);
        resolve(true);
      }, ms);
      waits.add(cut);
    });

  const invoke = async (invocation: AsyncInvocation): Promise<AsyncOutcome> => {
    const total = retryPolicy.retries + 1;
    const firstAttemptAt = new Date().toISOString();
    for (let attempt = 1; ; attempt++) {
      let error: unknown;
      try {
        await invocation.attempt();
        return { ok: true, attempts: attempt };
      } catch (thrown) {
        error = thrown;
      }
      const reported = lambdaError(error);
      const delay = retryPolicy.delaysMs[Math.min(attempt - 1, retryPolicy.delaysMs.length - 1)] ?? 0;
      const retry = attempt < total && !stopping;
      opts.log(`${invocation.label} failed (attempt ${attempt} of ${total}): ${reported.errorMessage}${retry ? `; retried in ${delay} ms` : ''}`);
      if (retry && (await wait(delay))) continue;
      return { ok: false, letter: await deadLetter(invocation, reported, attempt, firstAttemptAt) };
    }
  };

  const deadLetter = async (
    invocation: AsyncInvocation,
    error: DeadLetter['error'],
    attempts: number,
    firstAttemptAt: string,
  ): Promise<DeadLetter | undefined> => {
    const { queue, functionName, source, event } = invocation;
    try {
      const letter = await opts.store.put({ queue, functionName, source, event, error, attempts, firstAttemptAt, failedAt: new Date().toISOString() });
      const file = shortPath(opts.store.file(queue));
      opts.log(
        `${invocation.label} given up after ${attempts} attempt${attempts === 1 ? '' : 's'}${stopping ? ' (the local cloud is stopping)' : ''}: dead letter ${letter.id} in ${file} (npm run redrive -- ${queue})`,
      );
      return letter;
    } catch (storeError) {
      opts.log(`${invocation.label} given up after ${attempts} attempts, and its dead letter could not be written: ${(storeError as Error).message}`);
      return undefined;
    }
  };

  return {
    retryPolicy,
    run: (invocation) => {
      const running = invoke(invocation);
      inFlight.add(running);
      void running.finally(() => inFlight.delete(running));
      return running;
    },
    stop: async () => {
      stopping = true;
      for (const cut of [...waits]) cut();
      await Promise.all(inFlight);
    },
  };
};

/** `.local/dead-letters/jobs.jsonl` under the working directory, the absolute path elsewhere. */
const shortPath = (path: string): string => {
  const rel = relative(process.cwd(), path);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel;
};
