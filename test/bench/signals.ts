/**
 * Ctrl-C or a TERM while a bench runs: `stop` (the local cloud, the work directory) once, then exit 130. Ctrl-C can
 * arrive twice (from the terminal and forwarded by run.ts); `on`, not `once`: a second signal must not fall back to
 * the default (exit at once, the cloud left running).
 */
export const stopOnSignals = (progress: (line: string) => void, stop: () => Promise<void>): void => {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    progress(`${signal}: stopping the local cloud`);
    void stop().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
};
