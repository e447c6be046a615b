import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { jobs, triggers } from '#functions/routes.ts';
import { deadLetterQueues } from '../../constructs/async-retries.ts';
import type { AsyncInvoker } from '../dead-letters/async-invoker.ts';
import { type Handler, lambdaContext, lambdaError, loadHandler } from '../handlers.ts';
import { closeServer, listen } from '../http-server.ts';

const invokePath = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;

/** The handler modules by function name: the Cognito triggers and the jobs of functions/routes.ts. */
const triggerModules = new Map<string, string>(Object.values(triggers).map((t) => [t.name, t.handler]));
const jobModules = new Map<string, string>(jobs.map((j) => [j.name, j.handler]));

/** How long a job started here may run (the local scheduler gives its runs the same). */
const JOB_TIMEOUT_MS = 60_000;

/**
 * The local Lambda Invoke endpoint: cognito-local's LambdaClient calls it for its triggers, and any client may start a
 * job with an asynchronous invoke (the API's functions start runs through the job queues instead, decision 0032). It
 * runs our handlers in this process and answers as Lambda
 * does: a trigger synchronously, with `x-amz-function-error: Unhandled` for a thrown error (which Cognito turns into
 * UserLambdaValidationException); a job asynchronously (InvocationType Event): 202 at once, the run after it, retried
 * as Lambda retries it and then a dead letter in the `jobs` queue (`invoker`), as in the cloud.
 */
export const startTriggerBridge = async (opts: {
  port: number;
  log: (line: string) => void;
  invoker: AsyncInvoker;
  /** How a job's handler module is loaded (tests hand their own). */
  load?: (module: string) => Promise<Handler>;
}): Promise<{ url: string; stop(): Promise<void> }> => {
  const runner: JobRunner = { invoker: opts.invoker, load: opts.load ?? loadHandler };
  const server = createServer((req, res) => {
    void invoke(req, res, opts.log, runner);
  });
  await listen(server, opts.port, 'LAMBDA_PORT');
  return { url: `http://127.0.0.1:${opts.port}`, stop: () => closeServer(server) };
};

interface JobRunner {
  readonly invoker: AsyncInvoker;
  readonly load: (module: string) => Promise<Handler>;
}

const invoke = async (req: IncomingMessage, res: ServerResponse, log: (line: string) => void, runner: JobRunner) => {
  const name = invokePath.exec(req.url?.split('?')[0] ?? '')?.[1];
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const job = name ? jobModules.get(decodeURIComponent(name)) : undefined;
  if (req.method === 'POST' && name && job && req.headers['x-amz-invocation-type'] === 'Event') return startJob(res, decodeURIComponent(name), job, Buffer.concat(chunks), log, runner);
  const module = name ? triggerModules.get(decodeURIComponent(name)) : undefined;
  if (req.method !== 'POST' || !name || !module) {
    return send(res, 404, { Type: 'User', message: `Function not found: ${name ?? req.url}` }, {
      'x-amzn-errortype': 'ResourceNotFoundException',
    });
  }
  try {
    const event = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { triggerSource?: string };
    const handler = await loadHandler(module);
    const result = await handler(event, lambdaContext(name, 5000));
    log(`[trigger] ${name} ${event.triggerSource ?? ''} ok`);
    send(res, 200, result ?? null);
  } catch (error) {
    log(`[trigger] ${name} failed: ${(error as Error)?.message ?? String(error)}`);
    // Lambda answers 200 and flags the failure in this header.
    send(res, 200, lambdaError(error), { 'x-amz-function-error': 'Unhandled' });
  }
};

/**
 * Lambda's asynchronous invoke: the event is accepted (202, no body) and the function runs after the answer, with
 * Lambda's retries and then a dead letter. A body that is not JSON is refused, as Lambda refuses it
 * (InvalidRequestContentException), before anything is queued.
 */
const startJob = (res: ServerResponse, name: string, module: string, body: Buffer, log: (line: string) => void, runner: JobRunner) => {
  let event: unknown;
  try {
    event = JSON.parse(body.toString('utf8') || '{}');
  } catch {
    return send(res, 400, { Type: 'User', message: 'Could not parse request body into json' }, { 'x-amzn-errortype': 'InvalidRequestContentException' });
  }
  res.writeHead(202, { 'content-length': '0' });
  res.end();
  const label = `[job] ${name} (started at once)`;
  void runner.invoker
    .run({
      queue: deadLetterQueues.jobs,
      functionName: name,
      source: 'async-invoke',
      event,
      label,
      attempt: async () => (await runner.load(module))(event, lambdaContext(name, JOB_TIMEOUT_MS)),
    })
    .then((outcome) => {
      if (outcome.ok) log(`${label} ok`);
    });
};

const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  const payload = Buffer.from(JSON.stringify(body));
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(payload.length),
    'x-amz-executed-version': '$LATEST',
    ...headers,
  });
  res.end(payload);
};
