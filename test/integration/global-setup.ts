import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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
    /**
     * `POST <streamsUrl>/caught-up` answers 204 once the table stream's poller has handed every record written before
     * the call to the stream aggregator (decision 0040), 504 if it has not within 30 s: tests read an aggregated
     * figure after it, exactly.
     */
    streamsUrl: string;
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
  const streams = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/caught-up') return void res.writeHead(404).end();
    cloud.streams.caughtUp(30_000).then(
      () => res.writeHead(204).end(),
      (error: unknown) => res.writeHead(504, { 'content-type': 'text/plain' }).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => streams.listen(0, '127.0.0.1', resolve));
  project.provide('streamsUrl', `http://127.0.0.1:${(streams.address() as AddressInfo).port}`);
  return async () => {
    await new Promise((resolve) => streams.close(resolve));
    await cloud.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
