import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_THROTTLE, isKeyAccess, routes as allRoutes, routeKey, type RouteDef } from '#functions/routes.ts';
import { functionTimeoutMs } from '#functions/function-timeouts.ts';
import { accessTokenVerifier } from './access-token.ts';
import { buildEvent, errorResponse, routeMatcher, toResponse, type GatewayResponse } from './event.ts';
import { type Handler, lambdaContext, loadHandler } from '../handlers.ts';
import { keyAuthorizer } from './key-authorizer.ts';
import { tokenBucket } from './token-bucket.ts';
import { closeServer, listen } from '../http-server.ts';

/** API Gateway's hard limit on a request payload; the handlers' own, smaller limits answer 413 first. */
const MAX_PAYLOAD = 10 * 1024 * 1024;

export interface GatewayOptions {
  port: number;
  cognitoEndpoint: string;
  userPoolId: string;
  clientId: string;
  routes?: readonly RouteDef[];
  /** Per-route throttling as API Gateway's (default true); the bench turns it off to measure latency. */
  throttle?: boolean;
  /** The route's handler: from source by default (lib/local/handlers.ts); a test of the shipped bundles loads those. */
  handlerOf?: (route: RouteDef) => Promise<Handler>;
  /** The key authorizer of the /v1 routes: from source by default; the bundles' test loads the shipped one. */
  authorizerOf?: () => Promise<Handler>;
  log: (line: string) => void;
}

/**
 * The local API Gateway HTTP API: serves functions/routes.ts. Like the cloud, it only authenticates
 * (the JWT authorizer on the Cognito routes, the key authorizer function on the /v1 ones); roles, scopes and plans
 * are the handlers' middleware's business.
 */
export const startGateway = async (opts: GatewayOptions): Promise<{ url: string; stop(): Promise<void> }> => {
  const routes: readonly RouteDef[] = opts.routes ?? allRoutes;
  const match = routeMatcher(routes);
  const verify = accessTokenVerifier(opts);
  const buckets = new Map(routes.map((r) => [r, tokenBucket(r.throttle ?? DEFAULT_THROTTLE)]));
  const handlerOf = opts.handlerOf ?? ((route: RouteDef) => loadHandler(route.handler));
  const authorizeKey = keyAuthorizer(opts.authorizerOf ? { authorizerOf: opts.authorizerOf } : {});

  const handle = async (req: IncomingMessage, requestId: string): Promise<GatewayResponse> => {
    const url = req.url ?? '/';
    const path = url.split('?')[0]!;
    const found = match(req.method ?? 'GET', path);
    if (!found) return errorResponse(404, 'NOT_FOUND', `No route for ${req.method} ${path}.`);
    if (opts.throttle !== false && !buckets.get(found.route)!()) return errorResponse(429, 'RATE_LIMITED', 'Too many requests, slow down.');

    let claims: Record<string, unknown> | undefined;
    let lambda: Record<string, unknown> | undefined;
    if (isKeyAccess(found.route.access)) {
      lambda = await authorizeKey(found.route, req.headers.authorization, requestId);
      if (!lambda) return errorResponse(401, 'UNAUTHENTICATED', 'An API key is required (Authorization: Bearer cp_...).');
    } else if (found.route.access !== 'public') {
      claims = await verify(req.headers.authorization);
      if (!claims) return errorResponse(401, 'UNAUTHENTICATED', 'A valid access token is required.');
    }

    const body = await readBody(req);
    if (body === undefined) return errorResponse(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large.');

    const event = buildEvent(
      found,
      { method: req.method ?? 'GET', url, headers: req.headers, body, sourceIp: sourceIp(req) },
      { requestId, now: new Date(), claims, lambda },
    );
    try {
      const handler = await handlerOf(found.route);
      // The route's own Lambda timeout: a handler stops waiting just before it, as it would in the cloud.
      return toResponse(await handler(event, lambdaContext(found.route.name, functionTimeoutMs[found.route.profile ?? 'crud'])));
    } catch (error) {
      // As API Gateway: the integration failed; the client sees a request id, never the error.
      opts.log(`[api] ${routeKey(found.route)} ${requestId} handler failed: ${(error as Error)?.stack ?? String(error)}`);
      return errorResponse(500, 'INTERNAL', `Something went wrong on our side (request id ${requestId}).`);
    }
  };

  const server = createServer((req, res) => {
    const started = performance.now();
    const requestId = randomUUID();
    handle(req, requestId)
      .catch((error: unknown) => {
        opts.log(`[api] ${requestId} gateway error: ${String(error)}`);
        return errorResponse(500, 'INTERNAL', `Something went wrong on our side (request id ${requestId}).`);
      })
      .then((response) => {
        write(res, response, requestId);
        opts.log(`[api] ${req.method} ${req.url} ${response.statusCode} ${Math.round(performance.now() - started)}ms`);
      });
  });
  await listen(server, opts.port, 'API_PORT');
  // The port bound (`port: 0` takes any free one).
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stop: () => closeServer(server) };
};

const readBody = (req: IncomingMessage): Promise<Buffer | undefined> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_PAYLOAD) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_PAYLOAD ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });

const sourceIp = (req: IncomingMessage) => {
  const forwarded = req.headers['x-forwarded-for'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  return first || (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
};

const write = (res: ServerResponse, response: GatewayResponse, requestId: string) => {
  res.statusCode = response.statusCode;
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  if (response.cookies.length > 0) res.setHeader('set-cookie', response.cookies);
  res.setHeader('apigw-requestid', requestId);
  res.setHeader('content-length', response.body.length);
  res.end(response.body);
};
