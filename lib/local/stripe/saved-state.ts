import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { StripeState } from './state.ts';

/**
 * The stand-in's state kept in the data dir, like DynamoDB's: customers, subscriptions and sessions survive a
 * restart, so a creator subscribed yesterday still has a billing portal today. Saved shortly after each change
 * (written to a temporary file, then renamed, so a crash never leaves half a file) and once more at stop.
 */
export const savedState = (file: string, log: (line: string) => void) => {
  let pending: NodeJS.Timeout | undefined;
  let current: StripeState | undefined;

  const save = () => {
    clearTimeout(pending);
    pending = undefined;
    if (!current) return;
    writeFileSync(`${file}.tmp`, JSON.stringify(current));
    renameSync(`${file}.tmp`, file);
  };

  return {
    /** The saved state, or undefined for a first start (or an unreadable file, which is reported and replaced). */
    load(): StripeState | undefined {
      if (!existsSync(file)) return undefined;
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as StripeState;
      } catch (error) {
        log(`[stripe] ${file} is unreadable (${(error as Error).message}): starting the stand-in with a fresh state`);
        return undefined;
      }
    },
    /** The live state to save (the running stand-in's). */
    track(state: StripeState): void {
      current = state;
    },
    /** Something changed: save soon (changes in a burst are written once). */
    changed(): void {
      clearTimeout(pending);
      pending = setTimeout(save, 200);
      pending.unref();
    },
    /** Saves now (at stop). */
    flush: save,
  };
};
