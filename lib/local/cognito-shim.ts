import { randomUUID } from 'node:crypto';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { closeServer, listen } from './http-server.ts';
import { policyViolation } from './password-policy.ts';

/**
 * A small proxy in front of cognito-local for what the cloud pool does and cognito-local does not:
 * refresh through GetTokensFromRefreshToken and GlobalSignOut/RevokeToken (both used by Amplify v6),
 * and the password policy. Everything else passes through untouched. The browser calls it directly
 * (Amplify), so it answers CORS like cognito-local does.
 */
export const startCognitoShim = async (opts: {
  port: number;
  upstreamPort: number;
  log: (line: string) => void;
}): Promise<{ url: string; stop(): Promise<void> }> => {
  const server = createServer((req, res) => {
    handle(req, res, opts.upstreamPort).catch((error: unknown) => {
      opts.log(`[cognito-shim] ${String(error)}`);
      if (!res.headersSent) awsJsonError(res, 500, 'InternalErrorException', 'The local Cognito shim failed.');
      else res.destroy();
    });
  });
  await listen(server, opts.port, 'COGNITO_PORT');
  return { url: `http://127.0.0.1:${opts.port}`, stop: () => closeServer(server) };
};

const corsHeaders = {
  'access-control-allow-origin': '*',
  // Amplify reads the error type from this header when it can see it.
  'access-control-expose-headers': 'x-amzn-errortype, x-amzn-requestid',
};

const handle = async (req: IncomingMessage, res: ServerResponse, upstreamPort: number): Promise<void> => {
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      ...corsHeaders,
      'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
      'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '*',
      'access-control-max-age': '86400',
      'content-length': '0',
    });
    res.end();
    return;
  }
  const body = await readAll(req);
  const target = req.headers['x-amz-target'];
  const operation = typeof target === 'string' ? (target.split('.')[1] ?? '') : '';
  if (req.method !== 'POST' || !operation) return forward(req, res, body, upstreamPort);

  let input: Record<string, unknown>;
  try {
    input = body.length > 0 ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : {};
  } catch {
    return forward(req, res, body, upstreamPort);
  }

  if (operation === 'GlobalSignOut' || operation === 'RevokeToken') return awsJson(res, 200, {});

  const violation = policyViolation(operation, input);
  if (violation) return awsJsonError(res, 400, 'InvalidPasswordException', violation);

  if (operation === 'GetTokensFromRefreshToken') {
    const answer = await call(upstreamPort, 'InitiateAuth', {
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      ClientId: input.ClientId,
      AuthParameters: { REFRESH_TOKEN: input.RefreshToken },
      ClientMetadata: input.ClientMetadata,
    });
    const json = JSON.parse(answer.body || '{}') as Record<string, unknown>;
    if (answer.status !== 200) return awsJson(res, answer.status, json, errorType(json));
    return awsJson(res, 200, { AuthenticationResult: json.AuthenticationResult });
  }

  return forward(req, res, body, upstreamPort);
};

const errorType = (json: Record<string, unknown>) => (typeof json.__type === 'string' ? json.__type : undefined);

const readAll = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/** Passes the request to cognito-local as received and streams its answer back. */
const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer, upstreamPort: number): Promise<void> =>
  new Promise((resolve, reject) => {
    const upstream = request(
      {
        host: '127.0.0.1',
        port: upstreamPort,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: `127.0.0.1:${upstreamPort}`, 'content-length': String(body.length) },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        answer.on('end', () => resolve());
        answer.on('error', reject);
      },
    );
    upstream.on('error', reject);
    upstream.end(body);
  });

/** One JSON call to cognito-local (used to map GetTokensFromRefreshToken onto InitiateAuth). */
const call = (upstreamPort: number, operation: string, input: unknown): Promise<{ status: number; body: string }> =>
  new Promise((resolve, reject) => {
    const payload = Buffer.from(JSON.stringify(input));
    const upstream = request(
      {
        host: '127.0.0.1',
        port: upstreamPort,
        method: 'POST',
        path: '/',
        headers: {
          'content-type': 'application/x-amz-json-1.1',
          'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
          'content-length': String(payload.length),
        },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => resolve({ status: answer.statusCode ?? 502, body: Buffer.concat(chunks).toString('utf8') }));
        answer.on('error', reject);
      },
    );
    upstream.on('error', reject);
    upstream.end(payload);
  });

const awsJson = (res: ServerResponse, status: number, body: unknown, type?: string) => {
  const payload = Buffer.from(JSON.stringify(body));
  res.writeHead(status, {
    ...corsHeaders,
    'content-type': 'application/x-amz-json-1.1',
    'content-length': String(payload.length),
    'x-amzn-requestid': randomUUID(),
    ...(type ? { 'x-amzn-errortype': type } : {}),
  });
  res.end(payload);
};

/** Cognito's JSON error shape: `__type` in the body and the `x-amzn-errortype` header. */
const awsJsonError = (res: ServerResponse, status: number, type: string, message: string) =>
  awsJson(res, status, { __type: type, message }, type);
