import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalCloud } from '#lib/local/cloud.ts';
import { OUTPUTS_ENV } from './support/cloud.ts';

/**
 * Starts one local cloud (fresh data, free ports, seeded accounts, and the web app built and served as its distribution
 * serves it: the pages users load, a few requests each) for the whole run and hands its outputs to the tests through a
 * file named in E2E_OUTPUTS_FILE (workers inherit the environment).
 * The returned function is Playwright's teardown: it stops every piece and removes the data.
 *
 * With E2E_OUTPUTS_FILE already set (e.g. to .local/outputs.json of a running `npm start`), nothing is started.
 */
export default async function globalSetup(): Promise<(() => Promise<void>) | void> {
  if (process.env[OUTPUTS_ENV]) return;

  // The handlers run in this process: their request log lines would drown Playwright's report.
  process.env.LOG_LEVEL ??= 'silent';
  const dataDir = mkdtempSync(join(tmpdir(), 'cp-e2e-'));
  const lines: string[] = [];
  const cloud = await startLocalCloud({
    dataDir,
    ports: 'auto',
    web: 'built',
    seed: true,
    // Kept quiet, but shown when the start fails: the log says which piece did not come up.
    log: (line) => void lines.push(line),
  }).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    console.error(lines.slice(-40).join('\n'));
    throw error;
  });

  const file = join(dataDir, 'e2e-outputs.json');
  writeFileSync(file, JSON.stringify(cloud.outputs, null, 2));
  process.env[OUTPUTS_ENV] = file;

  return async () => {
    await cloud.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
