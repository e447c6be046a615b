import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';

/**
 * `npm run bench`. The bench runs in a child `node` and this process only waits for it. Why: the tsx CLI that
 * `npm run` starts SIGKILLs its child when the child does not acknowledge Ctrl-C within ~30 ms, and the bench's
 * event loop is busy under load, so the local cloud's detached processes (java, cognito-local) would be left
 * running. This idle process always answers in time; the child gets the signal and stops the cloud itself.
 */
// `npm run bench -- --scale [--fraction=0.1]`: the scale section alone (test/bench/scale/scale.ts), never by default.
const args = process.argv.slice(2);
const scale = args.includes('--scale');
const bench = fileURLToPath(new URL(scale ? './scale/scale.ts' : './bench.ts', import.meta.url));
const child = spawn(process.execPath, ['--import', 'tsx', bench, ...args.filter((a) => a !== '--scale')], { stdio: 'inherit' });

const forward = (signal: NodeJS.Signals): void => {
  // A terminal's Ctrl-C reaches the child directly too; bench.ts stops once however many arrive.
  if (child.exitCode === null) child.kill(signal);
};
process.on('SIGINT', forward);
process.on('SIGTERM', forward);

child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0)));
