import autocannon from 'autocannon';

/**
 * The HTTP load generator, run in its own process (see api-latency.ts) so it does not share an event loop with
 * the gateway it measures. argv[2] is a JSON LoadSpec; the last stdout line is a JSON LoadSlice.
 */
export interface LoadSpec {
  url: string;
  headers: Record<string, string>;
  connections: number;
  warmupSeconds: number;
  seconds: number;
}

export interface LoadSlice {
  /** Every 2xx response time in ms, at sub-millisecond resolution (autocannon's own histogram rounds to 1 ms). */
  times: number[];
  /** Responses of any status per second of the measured run. */
  requestsPerSecond: number;
  statusCodes: Record<string, number>;
  non2xx: number;
  errors: number;
  timeouts: number;
  seconds: number;
}

const run = (spec: LoadSpec, seconds: number, onResponse?: (status: number, ms: number) => void) =>
  new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url: spec.url, headers: spec.headers, connections: spec.connections, duration: seconds, timeout: 10 },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    if (onResponse) instance.on('response', (_client, status, _bytes, time) => onResponse(status, time));
  });

const main = async (): Promise<void> => {
  const spec = JSON.parse(process.argv[2] ?? '') as LoadSpec;
  if (spec.warmupSeconds > 0) await run(spec, spec.warmupSeconds);
  const times: number[] = [];
  const result = await run(spec, spec.seconds, (status, time) => {
    if (status >= 200 && status < 300) times.push(Math.round(time * 1000) / 1000);
  });
  const slice: LoadSlice = {
    times,
    requestsPerSecond: (result['2xx'] + result.non2xx) / result.duration,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count ?? 0])),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds: result.duration,
  };
  process.stdout.write(`${JSON.stringify(slice)}\n`);
};

await main();
