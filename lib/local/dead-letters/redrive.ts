import { type Handler, functionModules, lambdaContext, lambdaError, loadHandler } from '../handlers.ts';
import type { DeadLetter, DeadLetterStore } from './store.ts';

/** How long a replayed run may take (the local scheduler gives its runs the same). */
const REPLAY_TIMEOUT_MS = 60_000;

export interface RedriveOptions {
  readonly store: DeadLetterStore;
  readonly queue: string;
  /** Say what would be replayed, and change nothing. */
  readonly dryRun?: boolean;
  readonly log: (line: string) => void;
  /** Function name -> handler module (default: every function of functions/routes.ts). */
  readonly modules?: ReadonlyMap<string, string>;
  /** How a handler module is loaded (tests hand their own). */
  readonly load?: (module: string) => Promise<Handler>;
}

export interface RedriveResult {
  /** Replayed successfully and removed (in a dry run: what would be replayed). */
  readonly replayed: readonly DeadLetter[];
  /** Replayed and failed again: kept, for another re-drive once the cause is fixed. */
  readonly failed: readonly DeadLetter[];
  /** Naming a function this checkout does not have: kept. */
  readonly unknown: readonly DeadLetter[];
}

/**
 * `npm run redrive -- <queue>`: each dead letter of the queue, oldest first, is run once more by its function with its
 * event, in this process as `npm run invoke` does (against the running local cloud's services), and removed when the
 * run succeeds. A run that fails again leaves its letter where it was. Jobs read their work from the table, and the
 * event handlers apply what they were given idempotently, so a replay never repeats what already happened.
 */
export const redrive = async (opts: RedriveOptions): Promise<RedriveResult> => {
  const modules = opts.modules ?? functionModules;
  const load = opts.load ?? loadHandler;
  const letters = await opts.store.list(opts.queue);
  const result = { replayed: [] as DeadLetter[], failed: [] as DeadLetter[], unknown: [] as DeadLetter[] };
  if (letters.length === 0) {
    opts.log(`No dead letters in ${opts.store.file(opts.queue)}.`);
    return result;
  }
  for (const letter of letters) {
    const what = `${letter.id} ${letter.functionName} (${letter.source}, failed ${letter.failedAt} after ${letter.attempts} attempts: ${letter.error.errorMessage})`;
    const module = modules.get(letter.functionName);
    if (!module) {
      opts.log(`kept ${what}: no function "${letter.functionName}" in functions/routes.ts`);
      result.unknown.push(letter);
      continue;
    }
    if (opts.dryRun) {
      opts.log(`would replay ${what}`);
      result.replayed.push(letter);
      continue;
    }
    try {
      const handler = await load(module);
      await handler(letter.event, lambdaContext(letter.functionName, REPLAY_TIMEOUT_MS));
    } catch (error) {
      opts.log(`kept ${letter.id} ${letter.functionName}: it failed again: ${lambdaError(error).errorMessage}`);
      result.failed.push(letter);
      continue;
    }
    await opts.store.remove(opts.queue, letter.id);
    opts.log(`replayed ${what}`);
    result.replayed.push(letter);
  }
  const verb = opts.dryRun ? 'would replay' : 'replayed';
  opts.log(
    `${opts.queue}: ${verb} ${result.replayed.length}, ${opts.dryRun ? '' : `failed again ${result.failed.length}, `}unknown ${result.unknown.length}${opts.dryRun ? ' (dry run: nothing changed)' : ''}.`,
  );
  return result;
};
