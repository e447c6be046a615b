import { deadLetterQueues } from '#lib/constructs/async-retries.ts';
import { redrive } from '#lib/local/dead-letters/redrive.ts';
import { deadLetterStore } from '#lib/local/dead-letters/store.ts';
import { applyFunctionEnv, functionEnv } from '#lib/local/function-env.ts';
import { defaultDataDir, readOutputs } from '#lib/local/outputs.ts';

const queues: readonly string[] = Object.values(deadLetterQueues);

const usage = () =>
  `Usage: npm run redrive -- <queue> [--dry-run]\n  queues: ${queues.join(', ')} (files under <data dir>/dead-letters/)\n` +
  '  e.g. npm run redrive -- jobs --dry-run';

/**
 * `npm run redrive -- <queue> [--dry-run]`: replays the local dead letters of a queue against the running local cloud
 * (each by its function, in this process, as `npm run invoke` runs one) and removes each one that succeeds; with
 * --dry-run it only lists them. The cloud's queues are re-driven as docs/faults.md says ("Dead letters and re-drive").
 */
const main = async (): Promise<number> => {
  const args = process.argv.slice(2);
  const dryRun = args.includes('--dry-run');
  const rest = args.filter((a) => a !== '--dry-run');
  const [queue] = rest;
  if (!queue || rest.length > 1 || rest.some((a) => a.startsWith('-'))) {
    console.error(usage());
    return 2;
  }
  if (!queues.includes(queue)) {
    console.error(`Unknown dead-letter queue "${queue}".\n${usage()}`);
    return 2;
  }
  const dataDir = defaultDataDir();
  // The running cloud's endpoints, as `npm run invoke` uses them; a dry run needs none.
  if (!dryRun) applyFunctionEnv(functionEnv(readOutputs(dataDir), dataDir));
  const result = await redrive({ store: deadLetterStore(dataDir), queue, dryRun, log: (line) => console.log(line) });
  return result.failed.length + result.unknown.length === 0 ? 0 : 1;
};

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  },
);
