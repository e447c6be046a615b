import { readFileSync } from 'node:fs';
import { jobs, routes, triggers } from '#functions/routes.ts';
import { applyFunctionEnv, functionEnv } from '#lib/local/function-env.ts';
import { lambdaContext, lambdaError, loadHandler } from '#lib/local/handlers.ts';
import { defaultDataDir, readOutputs } from '#lib/local/outputs.ts';

/**
 * `npm run invoke -- <function> <event-file>`: runs one handler (a route, trigger or job `name` from
 * functions/routes.ts) with an event against the local cloud, as Lambda would, and prints its result.
 */
const functions = new Map<string, string>([
  ...routes.map((r) => [r.name, r.handler] as const),
  ...Object.values(triggers).map((t) => [t.name, t.handler] as const),
  ...jobs.map((j) => [j.name, j.handler] as const),
]);

const usage = () =>
  `Usage: npm run invoke -- <function> <event-file>\n  functions: ${[...functions.keys()].join(', ')}\n` +
  '  e.g. npm run invoke -- health events/api-health.json';

const main = async (): Promise<number> => {
  const [name, eventFile] = process.argv.slice(2);
  if (!name || !eventFile) {
    console.error(usage());
    return 2;
  }
  const module = functions.get(name);
  if (!module) {
    console.error(`Unknown function "${name}".\n${usage()}`);
    return 2;
  }
  const dataDir = defaultDataDir();
  applyFunctionEnv(functionEnv(readOutputs(dataDir), dataDir));
  const event: unknown = JSON.parse(readFileSync(eventFile, 'utf8'));
  const handler = await loadHandler(module);
  try {
    const result = await handler(event, lambdaContext(name));
    console.log(JSON.stringify(result ?? null, null, 2));
    return 0;
  } catch (error) {
    // What Lambda reports for an unhandled error.
    console.log(JSON.stringify(lambdaError(error), null, 2));
    return 1;
  }
};

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  },
);
