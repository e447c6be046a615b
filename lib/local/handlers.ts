import { randomUUID } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import { eventHandlers, jobs, routes, triggers } from '#functions/routes.ts';

/** functions/, resolved from this file so the cwd does not matter. */
const functionsDir = fileURLToPath(new URL('../../functions/', import.meta.url));

export type Handler = (event: unknown, context: Context) => Promise<unknown>;

/**
 * Every function of functions/routes.ts by its name (a route, trigger, job or event handler) -> its handler module:
 * what `npm run invoke` and `npm run redrive` run.
 */
export const functionModules: ReadonlyMap<string, string> = new Map<string, string>([
  ...routes.map((r) => [r.name, r.handler] as const),
  ...Object.values(triggers).map((t) => [t.name, t.handler] as const),
  ...jobs.map((j) => [j.name, j.handler] as const),
  ...Object.values(eventHandlers).map((e) => [e.name, e.handler] as const),
]);

const cache = new Map<string, Promise<Handler>>();

/**
 * The `handler` export of functions/<module>.ts, imported once and cached (as Lambda keeps a warm
 * module): no import on the request path after the first call.
 */
export const loadHandler = (module: string): Promise<Handler> => {
  let loaded = cache.get(module);
  if (!loaded) {
    loaded = import(pathToFileURL(`${functionsDir}${module}.ts`).href).then((mod: { handler?: unknown }) => {
      if (typeof mod.handler !== 'function') throw new Error(`functions/${module}.ts does not export a handler function`);
      return mod.handler as Handler;
    });
    // A failed import (file not written yet, syntax error) is retried on the next call.
    loaded.catch(() => cache.delete(module));
    cache.set(module, loaded);
  }
  return loaded;
};

/** A Lambda-like context: what handlers and middy read from the real one. */
export const lambdaContext = (functionName: string, timeoutMs = 30_000): Context => {
  const deadline = Date.now() + timeoutMs;
  const awsRequestId = randomUUID();
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `local/${awsRequestId}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
};

/** Lambda's answer for a thrown error: what cognito-local and `npm run invoke` report. */
export const lambdaError = (error: unknown): { errorType: string; errorMessage: string } => ({
  errorType: error instanceof Error ? error.name : 'Error',
  errorMessage: error instanceof Error ? error.message : String(error),
});
