import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Metafile } from 'esbuild';
import { eventHandlers, jobs, routes, triggers } from '#functions/routes.ts';
import { bundleFunction as buildBundle } from '#lib/constructs/bundling.ts';
import { median } from './stats.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Every function the CDK app deploys: the routes, the Cognito triggers, the event handlers and the scheduled jobs (each at its own profile). */
export interface FunctionEntry {
  name: string;
  handler: string;
  profile: 'crud' | 'heavy';
}

export const allFunctions = (): FunctionEntry[] => [
  ...routes.map((r) => ({ name: r.name, handler: r.handler, profile: r.profile ?? 'crud' })),
  ...Object.values(triggers).map((t) => ({ name: t.name, handler: t.handler, profile: 'crud' as const })),
  ...Object.values(eventHandlers).map((e) => ({ name: e.name, handler: e.handler, profile: 'crud' as const })),
  ...jobs.map((j) => ({ name: j.name, handler: j.handler, profile: 'profile' in j ? j.profile : ('crud' as const) })),
];

export const bundleBudget = { crud: 500 * 1024, heavy: 1.2 * 1024 * 1024 } as const;

export interface Bundle {
  file: string;
  bytes: number;
  /** Service SDKs inside the bundle (`@aws-sdk/client-*`, `stripe`), with the bytes each contributes to it. */
  sdkClients: { name: string; bytes: number }[];
}

/**
 * Bundles the function as CDK ships it (lib/constructs/bundling.ts's `bundleFunction`, the one build of both) into
 * `<outDir>/<name>/index.mjs`, its route module beside it. `extraAliases` builds a variant (the bench's "without
 * Powertools" baseline).
 */
export const bundleFunction = async (fn: FunctionEntry, outDir: string, extraAliases: Record<string, string> = {}): Promise<Bundle> => {
  const file = join(outDir, fn.name, 'index.mjs');
  const metafile = await buildBundle({ name: fn.name, handler: fn.handler, outfile: file, routeModulesDir: join(outDir, fn.name), extraAliases });
  return { file, bytes: statSync(file).size, sdkClients: sdkClients(metafile) };
};

const clientPackage = /node_modules\/(@aws-sdk\/client-[a-z0-9-]+|stripe)\//;

const sdkClients = (metafile: Metafile): Bundle['sdkClients'] => {
  const output = Object.entries(metafile.outputs).find(([path]) => path.endsWith('.mjs'));
  const bytes = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output?.[1].inputs ?? {})) {
    const name = clientPackage.exec(input)?.[1];
    if (name) bytes.set(name, (bytes.get(name) ?? 0) + bytesInOutput);
  }
  return [...bytes].map(([name, b]) => ({ name, bytes: b })).sort((a, b) => b.bytes - a.bytes);
};

/** The child's whole program: time one import of the bundle, print the milliseconds. */
const importProbe = (file: string): string =>
  `const t0 = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); ` +
  'process.stdout.write(String(performance.now() - t0));';

/** Median of `runs` cold imports, each in a fresh `node` (new isolate, nothing cached but the OS page cache). */
export const coldImportMedian = async (file: string, runs = 7): Promise<{ median: number; samples: number[] }> => {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(await timeImport(file));
  return { median: median(samples), samples };
};

const timeImport = (file: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', importProbe(file)], {
      // Lambda's environment minus the endpoints: a handler must load without touching any service. AWS_EXECUTION_ENV
      // and LAMBDA_TASK_ROOT as Lambda sets them, so Tracer and X-Ray's SDK load and start as they do there
      // (functions/adapters/tracer.ts loads them in Lambda only).
      env: {
        PATH: process.env.PATH,
        AWS_REGION: 'eu-west-2',
        TABLE_NAME: 'course-platform',
        LOG_LEVEL: 'silent',
        AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
        LAMBDA_TASK_ROOT: dirname(file),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const value = Number(out.trim());
      if (code === 0 && Number.isFinite(value)) resolve(value);
      else reject(new Error(`import failed (exit ${code}): ${err.trim() || out.trim()}`));
    });
  });

/**
 * Powertools (Logger, Metrics, Tracer) replaced by do-nothing stand-ins of the surface functions/ uses
 * (test/bench/without-powertools/): the same function as it would be without them, for a before/after in one run.
 */
export const withoutPowertools: Record<string, string> = Object.fromEntries(
  ['logger', 'metrics', 'tracer'].map((p) => [`@aws-lambda-powertools/${p}`, join(repoRoot, 'test', 'bench', 'without-powertools', `${p}.ts`)]),
);
