import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { triggers } from '#functions/routes.ts';
import { lambdaContext, lambdaError, loadHandler } from '../handlers.ts';
import { closeServer, listen } from '../http-server.ts';

const invokePath = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;

/** The trigger handler modules by function name, from `triggers` in functions/routes.ts. */
const triggerModules = new Map<string, string>(Object.values(triggers).map((t) => [t.name, t.handler]));

/**
 * The Lambda Invoke endpoint cognito-local's LambdaClient calls for its triggers: runs our trigger
 * handlers in this process and answers as Lambda does, including `x-amz-function-error: Unhandled`
 * for a thrown error (which Cognito turns into UserLambdaValidationException).
 */
export const startTriggerBridge = async (opts: {
  port: number;
  log: (line: string) => void;
}): Promise<{ url: string; stop(): Promise<void> }> => {
  const server = createServer((req, res) => {
    void invoke(req, res, opts.log);
  });
  await listen(server, opts.port, 'LAMBDA_PORT');
  return { url: `http://127.0.0.1:${opts.port}`, stop: () => closeServer(server) };
};

const invoke = async (req: IncomingMessage, res: ServerResponse, log: (line: string) => void) => {
  const name = invokePath.exec(req.url?.split('?')[0] ?? '')?.[1];
  const module = name ? triggerModules.get(decodeURIComponent(name)) : undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
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
