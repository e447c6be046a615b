import { banner } from '#lib/local/banner.ts';
import { startLocalCloud, type LocalCloud } from '#lib/local/cloud.ts';
import { defaultDataDir } from '#lib/local/outputs.ts';

/**
 * `npm start`: the whole platform on this machine (ARCHITECTURE.md, "The local cloud").
 * LOCAL_DATA_DIR moves the data dir, the *_PORT variables move the ports, LOCAL_WEB=0 skips the web app.
 * The children run in their own process groups (so a stop reaches their children too); that also means
 * Ctrl-C does not reach them directly: this process stops them on SIGINT/SIGTERM.
 */
const web = process.env.LOCAL_WEB !== '0';
const log = (line: string) => console.log(line);
const dataDir = defaultDataDir();

let cloud: LocalCloud | undefined;
let stopRequested = false;

const stop = async (signal: string) => {
  console.log(`\n${signal}: stopping the local cloud...`);
  await cloud?.stop();
  console.log('Stopped.');
  process.exit(0);
};

const onSignal = (signal: string) => {
  if (stopRequested) return;
  stopRequested = true;
  // While starting, the start finishes (or fails and cleans up) first; then we stop.
  if (cloud) void stop(signal);
};
process.on('SIGINT', () => onSignal('SIGINT'));
process.on('SIGTERM', () => onSignal('SIGTERM'));

try {
  const started = performance.now();
  cloud = await startLocalCloud({ dataDir, web, seed: true, log });
  if (stopRequested) await stop('signal');
  console.log(banner(cloud, { web, seeded: true, dataDir }));
  console.log(`  Started in ${((performance.now() - started) / 1000).toFixed(1)} s.\n`);
} catch (error) {
  console.error(`\nThe local cloud could not start: ${(error as Error).message}`);
  process.exit(1);
}
