import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createInterface } from 'node:readline';

// eslint-disable-next-line no-control-regex -- matching the ESC of terminal colour codes is the point
const ansiColour = /\u001b\[[0-9;]*m/g;

export interface Child {
  readonly name: string;
  readonly process: ChildProcess;
  /** Resolves once the process has exited (immediately if it already has). */
  readonly exited: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Spawns a child in its own process group (detached), so stopping it also stops whatever it spawned
 * (npm -> vite -> esbuild, java). Every output line goes to `log` prefixed with the child's name.
 */
export const spawnChild = (
  name: string,
  command: string,
  args: string[],
  options: SpawnOptions & { log: (line: string) => void },
): Child => {
  const { log, ...spawnOptions } = options;
  const child = spawn(command, args, { ...spawnOptions, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) {
      createInterface({ input: stream }).on('line', (line) => {
        // Some children colour their logs whatever NO_COLOR says.
        const plain = line.replace(ansiColour, '');
        if (plain.trim() !== '') log(`[${name}] ${plain}`);
      });
    }
  }
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  const stop = async () => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    signalGroup(child.pid, 'SIGTERM');
    const killed = await Promise.race([exited.then(() => true), delay(5000).then(() => false)]);
    if (!killed) signalGroup(child.pid, 'SIGKILL');
    await exited;
    // The leader may be gone while a grandchild ignored SIGTERM: make sure the whole group is.
    signalGroup(child.pid, 'SIGKILL');
  };
  return { name, process: child, exited, stop };
};

const signalGroup = (pid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
};

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Polls `probe` until it succeeds; fails early if the child exits, and after `timeoutMs`.
 * The error carries the child's name so the developer knows which piece did not come up.
 */
export const waitUntilReady = async (
  what: string,
  probe: () => Promise<boolean>,
  options: { timeoutMs?: number; child?: Child } = {},
): Promise<void> => {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  let childExited = false;
  void options.child?.exited.then(() => (childExited = true));
  while (Date.now() < deadline) {
    if (childExited) throw new Error(`${what} exited during start (see its log lines above).`);
    if (await probe().catch(() => false)) return;
    await delay(100);
  }
  throw new Error(`${what} did not become ready within ${Math.round((options.timeoutMs ?? 60_000) / 1000)} s.`);
};

/** True when the URL answers with any HTTP status (the server is listening and serving). */
export const answers = async (url: string): Promise<boolean> => {
  const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
  await res.body?.cancel();
  return true;
};
