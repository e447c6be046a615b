import type { IncomingHttpHeaders } from 'node:http';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { routeKey, type RouteDef } from '#functions/routes.ts';

/**
 * The pure half of the local API gateway: matching a request to functions/routes.ts, building the
 * HTTP API payload v2 event exactly as API Gateway does, and turning a handler's result into a response.
 */

export interface RouteMatch {
  route: RouteDef;
  pathParameters: Record<string, string>;
}

interface CompiledRoute {
  route: RouteDef;
  segments: string[];
}

/** Precompiles the route table; the returned matcher is what runs per request. */
export const routeMatcher = (routes: readonly RouteDef[]) => {
  const paramCount = (r: RouteDef) => r.path.split('/').filter((s) => s.startsWith('{')).length;
  // As API Gateway: the most specific route wins (/api/courses/new before /api/courses/{courseId}).
  const compiled: CompiledRoute[] = [...routes]
    .sort((a, b) => paramCount(a) - paramCount(b))
    .map((route) => ({ route, segments: route.path.split('/') }));
  return (method: string, path: string): RouteMatch | undefined => {
    const parts = path.split('/');
    for (const { route, segments } of compiled) {
      if (route.method !== method || segments.length !== parts.length) continue;
      const pathParameters: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < segments.length && ok; i++) {
        const segment = segments[i]!;
        const part = parts[i]!;
        if (segment.startsWith('{') && segment.endsWith('}')) {
          if (part === '') ok = false;
          else pathParameters[segment.slice(1, -1)] = safeDecode(part);
        } else if (segment !== part) ok = false;
      }
      if (ok) return { route, pathParameters };
    }
    return undefined;
  };
};

const safeDecode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/**
 * API Gateway hands JWT claims to the integration as strings: numbers and booleans stringified, arrays
 * as "[a b]" (e.g. cognito:groups), objects in Go's map notation. Handlers must parse them the same way
 * locally and in the cloud, so we reproduce it.
 */
export const toGatewayClaims = (payload: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(Object.entries(payload).map(([key, value]) => [key, claimString(value)]));

const claimString = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return `[${value.map(claimString).join(' ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return `map[${entries.map(([k, v]) => `${k}:${claimString(v)}`).join(' ')}]`;
  }
  return String(value);
};

export interface IncomingRequest {
  method: string;
  /** Path and query as received, e.g. /api/courses?limit=10. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  sourceIp: string;
}

export interface EventOptions {
  requestId: string;
  now: Date;
  /** Verified access-token payload; absent on public routes (no authorizer, as in the cloud). */
  claims?: Record<string, unknown> | undefined;
  /** A Lambda authorizer's `context` (the /v1 key authorizer), under `requestContext.authorizer.lambda`. */
  lambda?: Record<string, unknown> | undefined;
}

/** Content types API Gateway passes as text; anything else arrives base64-encoded. */
const isTextContent = (contentType: string | undefined): boolean => {
  if (!contentType) return true;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return (
    type.startsWith('text/') ||
    type === 'application/json' ||
    type.endsWith('+json') ||
    type === 'application/xml' ||
    type.endsWith('+xml') ||
    type === 'application/javascript' ||
    type === 'application/x-www-form-urlencoded'
  );
};

export const buildEvent = (
  match: RouteMatch,
  req: IncomingRequest,
  opts: EventOptions,
): APIGatewayProxyEventV2WithJWTAuthorizer => {
  const queryIndex = req.url.indexOf('?');
  const rawPath = queryIndex === -1 ? req.url : req.url.slice(0, queryIndex);
  const rawQueryString = queryIndex === -1 ? '' : req.url.slice(queryIndex + 1);

  // Repeated headers and query keys are joined with commas; cookies move out of headers into `cookies`.
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    const joined = Array.isArray(value) ? value.join(',') : value;
    if (lower === 'cookie') cookies = joined.split(';').map((c) => c.trim()).filter(Boolean);
    else headers[lower] = joined;
  }

  let queryStringParameters: Record<string, string> | undefined;
  if (rawQueryString) {
    queryStringParameters = {};
    for (const [key, value] of new URLSearchParams(rawQueryString)) {
      const existing = queryStringParameters[key];
      queryStringParameters[key] = existing === undefined ? value : `${existing},${value}`;
    }
  }

  const hasBody = req.body.length > 0;
  const isBase64Encoded = hasBody && !isTextContent(headers['content-type']);
  const key = routeKey(match.route);
  const domainName = headers.host ?? 'localhost';

  const event = {
    version: '2.0',
    routeKey: key,
    rawPath,
    rawQueryString,
    ...(cookies ? { cookies } : {}),
    headers,
    ...(queryStringParameters ? { queryStringParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      ...(opts.claims
        ? { authorizer: { jwt: { claims: toGatewayClaims(opts.claims), scopes: scopesOf(opts.claims) } } }
        : opts.lambda
          ? { authorizer: { lambda: opts.lambda } }
          : {}),
      domainName,
      domainPrefix: domainName.split('.')[0]!.split(':')[0]!,
      http: {
        method: req.method,
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: req.sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: opts.requestId,
      routeKey: key,
      stage: '$default',
      time: clfTime(opts.now),
      timeEpoch: opts.now.getTime(),
    },
    ...(Object.keys(match.pathParameters).length > 0 ? { pathParameters: match.pathParameters } : {}),
    ...(hasBody ? { body: req.body.toString(isBase64Encoded ? 'base64' : 'utf8') } : {}),
    isBase64Encoded,
  };
  return event as APIGatewayProxyEventV2WithJWTAuthorizer;
};

const scopesOf = (claims: Record<string, unknown>): string[] =>
  typeof claims.scope === 'string' ? claims.scope.split(' ').filter(Boolean) : [];

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

/** API Gateway's requestContext.time: "12/Mar/2020:19:03:58 +0000". */
export const clfTime = (d: Date): string =>
  `${pad(d.getUTCDate())}/${months[d.getUTCMonth()]}/${d.getUTCFullYear()}:` +
  `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;

export interface GatewayResponse {
  statusCode: number;
  headers: Record<string, string>;
  cookies: string[];
  body: Buffer;
}

/**
 * A handler's result as API Gateway turns it into a response: a structured result is used as is; any
 * other value (a plain object, a string) is a 200 with a JSON body.
 */
export const toResponse = (result: unknown): GatewayResponse => {
  if (isStructured(result)) {
    const headers = Object.fromEntries(
      Object.entries(result.headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]),
    );
    const body = result.body ?? '';
    return {
      statusCode: result.statusCode!,
      headers,
      cookies: result.cookies ?? [],
      body: Buffer.from(body, result.isBase64Encoded ? 'base64' : 'utf8'),
    };
  }
  const body = result === undefined ? '' : typeof result === 'string' ? result : JSON.stringify(result);
  return { statusCode: 200, headers: { 'content-type': 'application/json' }, cookies: [], body: Buffer.from(body) };
};

const isStructured = (r: unknown): r is APIGatewayProxyStructuredResultV2 =>
  r !== null && typeof r === 'object' && typeof (r as { statusCode?: unknown }).statusCode === 'number';

/** The contract's error body (functions/contracts/common.ts). */
export const errorResponse = (statusCode: number, code: string, message: string): GatewayResponse => ({
  statusCode,
  headers: { 'content-type': 'application/json' },
  cookies: [],
  body: Buffer.from(JSON.stringify({ error: { code, message } })),
});
