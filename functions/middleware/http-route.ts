import { randomUUID } from 'node:crypto';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type * as z from 'zod';
import { AppError, ForbiddenError, UnauthenticatedError, ValidationError } from '#core/errors.ts';
import { publishMetrics } from '#adapters/metrics.ts';
// Types only from the route table: its values reach a bundle through handler-route.ts, one route per function.
import type { KeyAccess, RouteName, RouteNamed } from '#functions/routes.ts';
import { checkPlan, checkStoredAccount, storedPlan, storedProfile } from '#middleware/account.ts';
import { authorizeApiCall } from '#middleware/api-key.ts';
import { authFromClaims, type Auth } from '#middleware/auth.ts';
import { handlerRoute, type HandlerRoute } from '#middleware/handler-route.ts';
import { mapError, statusOf, zodDetails } from '#middleware/errors.ts';
import { describeError, scopedLog } from '#middleware/logger.ts';
import { checkOrigin } from '#middleware/origin.ts';

export type HttpEvent = APIGatewayProxyEventV2WithJWTAuthorizer;
export type HttpResult = APIGatewayProxyStructuredResultV2;

/** How long before the function's timeout a request stops waiting on its use case and answers 503 (Retry-After). */
export const EARLY_TIMEOUT_MS = 500;

/** The caller of route `N`: always there on a route that is not public (the middleware answers 401/403 otherwise). */
export type AuthOf<N extends RouteName> = RouteNamed<N>['access'] extends 'public' ? undefined : Auth;

export interface HttpRequest<N extends RouteName, B, Q, H> {
  body: B;
  query: Q;
  /** The headers the route declared, parsed by its schema (names lower-cased). */
  headers: H;
  params: Record<string, string>;
  /** The body exactly as received (webhook signatures are computed over it). */
  rawBody: string;
  auth: AuthOf<N>;
  requestId: string;
  /** Adds fields to this request's one log line (the webhook's event id and outcome, say). */
  annotate(fields: Record<string, unknown>): void;
  /** Who is asking, as the edge saw them: what a per-visitor count is keyed on (never stored as such). */
  viewer: Viewer;
}

export interface Viewer {
  /** The viewer's address: CloudFront's `CloudFront-Viewer-Address` when it came through it, else the connection's. */
  ip: string;
  userAgent: string;
}

/** `CloudFront-Viewer-Address` is `<ip>:<port>` (IPv6 without brackets): the address is all before the last colon. */
const viewerOf = (event: HttpEvent, headers: Record<string, string | undefined>): Viewer => {
  const edge = headers['cloudfront-viewer-address'];
  const cut = edge?.lastIndexOf(':') ?? -1;
  return {
    ip: edge && cut > 0 ? edge.slice(0, cut) : (event.requestContext?.http?.sourceIp ?? ''),
    userAgent: headers['user-agent'] ?? event.requestContext?.http?.userAgent ?? '',
  };
};

/** A use case's answer with a status other than 200, or extra headers. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}

  /**
   * An answer that is not JSON (the public landing page's HTML): the body is sent as it is, with the headers given,
   * which name its content-type. Errors on such a route are still the JSON error body.
   */
  static raw(status: number, body: string, headers: Readonly<Record<string, string>> & { readonly 'content-type': string }): Reply {
    return new RawReply(status, body, { ...headers });
  }

  /** A 302 to `location` (always one the use case checked), setting these cookies (HTTP API's `cookies`). */
  static redirect(location: string, cookies: string[] = []): Reply {
    return new RedirectReply(location, cookies);
  }
}

class RedirectReply extends Reply {
  constructor(
    readonly location: string,
    readonly cookies: string[],
  ) {
    super(302, null, { location });
  }
}

class RawReply extends Reply {
  declare readonly body: string;
}

/** What a handler declares: its route (by name, from the route table), and the schemas of what it reads. */
export interface RouteSpec<N extends RouteName, B, Q, H> {
  route: N;
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  /** Headers the use case reads (e.g. Idempotency-Key): validated like the body, 400 with their paths when wrong. */
  headers?: z.ZodType<H>;
  /** Skip JSON parsing: the handler reads `rawBody` (the Stripe webhook). */
  raw?: boolean;
}

interface State {
  requestId: string;
  started: number;
  auth: Auth | undefined;
  annotations: Record<string, unknown>;
}

const jsonHeaders = (requestId: string) => ({
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-request-id': requestId,
});

const lowerCaseHeaders = (headers: Record<string, string | undefined> = {}) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

const decodeBody = (event: HttpEvent): string => {
  if (!event.body) return '';
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
};

const isJson = (contentType: string | undefined) =>
  contentType !== undefined && /^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(contentType.trim());

/**
 * The event must be for the handler's own route (fails closed on a wiring mistake); then 401 without a valid caller
 * and 403 for a role the route does not admit; then the caller's stored account (middleware/account.ts): 403
 * ACCOUNT_DISABLED for an account turned off, 403 for a role changed since the token was issued; then, on a route that
 * needs a plan feature, a creator's plan (403 PLAN_REQUIRED without it).
 */
const authorize = async (route: HandlerRoute, event: HttpEvent, state: State, headers: Record<string, string | undefined>): Promise<void> => {
  if (event.routeKey !== route.key) throw new ForbiddenError();
  if (route.access === 'public') return;
  if (isKeyRoute(route.access)) {
    // The public API: the key authorizer's answer, never a Cognito token (functions/middleware/api-key.ts).
    state.auth = await authorizeApiCall(route.access, (event.requestContext as { authorizer?: { lambda?: unknown } }).authorizer?.lambda, headers['authorization']);
    return;
  }
  const auth = state.auth;
  if (!auth) throw new UnauthenticatedError();
  if (!auth.role || !route.access.includes(auth.role)) throw new ForbiddenError(route.forbiddenMessage);
  auth.role = checkStoredAccount(await storedProfile(auth.userId), route.access);
  await checkPlan(auth.role, route.feature, () => storedPlan(auth.userId));
};

/** routes.ts's `isKeyAccess`, here so that no value of the route table reaches a bundle. */
const isKeyRoute = (access: HandlerRoute['access']): access is KeyAccess => typeof access === 'object' && !Array.isArray(access);

/** 413 over the route's limit (default 64 KiB). */
const checkSize = (route: HandlerRoute, raw: string): void => {
  const limit = route.bodyLimit;
  if (Buffer.byteLength(raw, 'utf8') > limit) {
    throw new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${Math.floor(limit / 1024)} KiB.`);
  }
};

/**
 * 415 for a body that is not JSON, 400 for malformed JSON or a schema miss (strict schemas: unknown fields too).
 * No body at all (and then no Content-Type needed) is read as `{}`: a route whose contract has no required field
 * (`POST .../complete`) takes a bare POST, and any other answers 400 naming the fields it misses.
 */
const parseBody = <B>(headers: Record<string, string | undefined>, raw: string, schema: z.ZodType<B>): B => {
  let value: unknown = {};
  if (raw.trim() !== '') {
    if (!isJson(headers['content-type'])) {
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the request body as JSON (Content-Type: application/json).');
    }
    try {
      value = JSON.parse(raw);
    } catch {
      throw new ValidationError('The request body is not valid JSON.');
    }
  }
  return validate(schema, value, 'The request is not valid.');
};

const validate = <T>(schema: z.ZodType<T>, value: unknown, message: string): T => {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ValidationError(message, zodDetails(parsed.error));
  return parsed.data;
};

/** Per-invocation state, keyed by the event object middy passes to the middlewares and the handler. */
const states = new WeakMap<HttpEvent, State>();

const stateOf = (event: HttpEvent, context?: Context): State => {
  let state = states.get(event);
  if (!state) {
    state = {
      requestId: event.requestContext?.requestId ?? context?.awsRequestId ?? randomUUID(),
      started: performance.now(),
      auth: authFromClaims(event.requestContext?.authorizer?.jwt?.claims),
      annotations: {},
    };
    states.set(event, state);
  }
  return state;
};

const toResult = (value: unknown, requestId: string, cacheControl: string | undefined): HttpResult => {
  if (value instanceof RedirectReply) {
    return { statusCode: 302, headers: { 'cache-control': 'no-store', 'x-request-id': requestId, location: value.location }, cookies: value.cookies, body: '' };
  }
  if (value instanceof RawReply) {
    return { statusCode: value.status, headers: { 'cache-control': 'no-store', 'x-request-id': requestId, ...value.headers }, body: value.body };
  }
  const reply = value instanceof Reply ? value : new Reply(200, value ?? null);
  // A cacheable route's 200 may be kept (the route table's `cacheControl`); any other answer never is.
  const cache = cacheControl !== undefined && reply.status === 200 ? { 'cache-control': cacheControl } : {};
  return {
    statusCode: reply.status,
    headers: { ...jsonHeaders(requestId), ...cache, ...reply.headers },
    body: reply.status === 204 ? '' : JSON.stringify(reply.body),
  };
};

/** The end of a request: its one log line (request id, route, caller, outcome, annotations) and its metrics. */
const finish = (route: HandlerRoute, state: State, fields: Record<string, unknown>, level: 'info' | 'warn' | 'error'): void => {
  const log = scopedLog({ requestId: state.requestId, route: route.key });
  log[level](level === 'error' ? 'request failed' : 'request', {
    ...state.annotations,
    ...fields,
    durationMs: Math.round(performance.now() - state.started),
    userId: state.auth?.userId,
    role: state.auth?.role,
  });
  publishMetrics();
};

/**
 * The one way to write an HTTP handler: name the route, parse with the contract, call one use case, map the result.
 *   export const handler = httpRoute({ route: 'create-course', body: createCourseBody }, ({ body, auth }) =>
 *     createCourse(deps, { creatorId: auth.userId, body }));
 * Cross-cutting, in this order: request id and route on every log line, one line per request; error -> contract
 * body (never a raw error); the caller's role against the route table's `access`; body size, media type, JSON and
 * schema; the declared headers and query.
 */
export const httpRoute = <N extends RouteName, B = undefined, Q = undefined, H = undefined>(
  spec: RouteSpec<N, B, Q, H>,
  useCase: (request: HttpRequest<N, B, Q, H>) => Promise<unknown> | unknown,
) => {
  // Runs as the handler module loads (cold start): a bundle built for another route throws here (handler-route.ts).
  const route = handlerRoute(spec.route);
  // Stop waiting shortly before Lambda would cut the function off: the request still gets its 503 body and log line.
  return middy<HttpEvent, HttpResult>({ timeoutEarlyInMillis: EARLY_TIMEOUT_MS })
    .use({
      name: 'request-log-and-errors',
      before: (request) => {
        stateOf(request.event, request.context);
      },
      after: (request) => {
        finish(route, stateOf(request.event, request.context), { status: request.response?.statusCode }, 'info');
      },
      onError: (request) => {
        const state = stateOf(request.event ?? ({} as HttpEvent), request.context);
        const mapped = mapError(request.error, state.requestId);
        const fields = { status: mapped.status, code: mapped.body.error.code };
        // Unexpected: the error with its stack. Expected: its code, and its cause when it has one (a Stripe 4xx
        // behind UPSTREAM_FAILED), so an operator sees why without the response saying more than it should.
        // A dependency that failed for a moment (a 503) is its own cause.
        const cause = mapped.status === statusOf.SERVICE_UNAVAILABLE ? request.error : (request.error as { cause?: unknown } | null)?.cause;
        if (mapped.unexpected) finish(route, state, { ...fields, ...describeError(request.error) }, 'error');
        else finish(route, state, cause === undefined ? fields : { ...fields, cause: describeError(cause) }, cause === undefined ? 'info' : 'warn');
        request.response = { statusCode: mapped.status, headers: { ...jsonHeaders(state.requestId), ...mapped.headers }, body: JSON.stringify(mapped.body) };
      },
    })
    .handler(async (event, context) => {
      const state = stateOf(event, context);
      const headers = lowerCaseHeaders(event.headers);
      // Not through the edge: refused before anything else is looked at.
      checkOrigin(route, headers);
      await authorize(route, event, state, headers);
      const rawBody = decodeBody(event);
      checkSize(route, rawBody);
      const body = spec.body && !spec.raw ? parseBody(headers, rawBody, spec.body) : (undefined as B);
      const query = spec.query ? validate(spec.query, event.queryStringParameters ?? {}, 'The query string is not valid.') : (undefined as Q);
      const declared = spec.headers ? validate(spec.headers, headers, 'The request headers are not valid.') : (undefined as H);
      const result = await useCase({
        body,
        query,
        headers: declared,
        params: (event.pathParameters ?? {}) as Record<string, string>,
        rawBody,
        auth: state.auth as AuthOf<N>,
        requestId: state.requestId,
        annotate: (fields) => Object.assign(state.annotations, fields),
        viewer: viewerOf(event, headers),
      });
      return toResult(result, state.requestId, route.cacheControl);
    });
};
