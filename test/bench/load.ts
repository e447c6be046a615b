import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadSlice, LoadSpec } from './load-worker.ts';
import { percentile } from './stats.ts';

/** Latency of one route under load: 2xx response times, all responses per second, failures. */
export interface RouteLatency {
  p50: number;
  p99: number;
  requestsPerSecond: number;
  errors: number;
  non2xx: number;
  statusCodes: Record<string, number>;
}

/** autocannon in a child process (its own core on a 2-core machine): optional warm-up, then the measured slice. */
export const runLoad = (spec: LoadSpec): Promise<LoadSlice> => {
  const worker = fileURLToPath(new URL('./load-worker.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', worker, JSON.stringify(spec)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        if (code !== 0) throw new Error(`exit ${code}`);
        resolve(JSON.parse(out.trim().split('\n').pop() ?? '') as LoadSlice);
      } catch {
        reject(new Error(`load generator failed (exit ${code}): ${err.trim() || out.trim()}`));
      }
    });
  });
};

/** Slices of the same route taken as one measurement (throughput weighted by each slice's duration). */
export const combineSlices = (slices: readonly LoadSlice[]): RouteLatency => {
  const sum = (f: (s: LoadSlice) => number) => slices.reduce((acc, s) => acc + f(s), 0);
  const statusCodes: Record<string, number> = {};
  for (const slice of slices) for (const [code, n] of Object.entries(slice.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + n;
  const times = slices.flatMap((s) => s.times);
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    requestsPerSecond: sum((s) => s.requestsPerSecond * s.seconds) / sum((s) => s.seconds),
    errors: sum((s) => s.errors),
    non2xx: sum((s) => s.non2xx),
    statusCodes,
  };
};

/** `3x500 1x402`: the non-2xx answers by status, for the table. */
export const non2xxCodes = (statusCodes: Record<string, number>): string =>
  Object.entries(statusCodes)
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, n]) => `${n}x${code}`)
    .join(' ');
