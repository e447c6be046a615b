import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalCloud } from '#lib/local/cloud.ts';
import type { Outputs } from '#lib/local/outputs.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    outputs: Outputs;
    functionEnv: Record<string, string>;
    /** The local cloud's own log lines (the scheduler's and the Lambda endpoint's runs, the seed), one per line. */
    cloudLog: string;
  }
}

/** A line of the cloud's log; one a piece writes while the cloud stops, after its directory is gone, is dropped. */
const appendLog = (file: string, line: string) => {
  try {
    appendFileSync(file, `${line}\n`);
  } catch {
    // The data directory was removed at the end of the run.
  }
};

/** The integration suite runs against one real local cloud (DynamoDB Local, cognito-local, the gateway...). */
export default async function setup(project: TestProject) {
  // The handlers run in this process (the local gateway calls them in-process): keep the test output readable.
  process.env['LOG_LEVEL'] ??= 'error';
  // Nor their business metrics (EMF lines; Powertools' own switch): the unit tests check what is counted.
  process.env['POWERTOOLS_METRICS_DISABLED'] ??= 'true';
  const dataDir = mkdtempSync(join(tmpdir(), 'cp-integration-'));
  const cloudLog = join(dataDir, 'cloud.log');
  const cloud = await startLocalCloud({ dataDir, ports: 'auto', web: false, seed: true, faults: true, log: (line) => appendLog(cloudLog, line) });
  project.provide('outputs', cloud.outputs);
  project.provide('cloudLog', cloudLog);
  project.provide('functionEnv', cloud.env);
  return async () => {
    await cloud.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
