import { randomUUID } from 'node:crypto';
import middy from '@middy/core';
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import { AppError, ForbiddenError, UnauthenticatedError, ValidationError } from '../core/errors.ts';
import { DEFAULT_BODY_LIMIT, findRoute, type RouteDef } from '../routes.ts';
import { authFromClaims, type Auth } from './auth.ts';
import { mapError, zodDetails } from './errors.ts';
import { describeError, logger } from './logger.ts';

export type HttpEvent = APIGatewayProxyEventV2WithJWTAuthorizer;
export type HttpResult = APIGatewayProxyStructuredResultV2;

export interface HttpRequest<B, Q> {
  body: B;
  query: Q;
  params: Record<string, string>;
  headers: Record<string, string | undefined>;
  /** The body exactly as received (webhook signatures are computed over it). */
  rawBody: string;
  /** Present on every non-public route (the middleware refuses the request otherwise). */
  auth: Auth | undefined;
  requestId: string;
}

/** A use case's answer with a status other than 200, or extra headers. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

interface RouteSpec<B, Q> {
  body?: z.ZodType<B>;
  query?: z.ZodType<Q>;
  /** Skip JSON parsing: the handler reads `rawBody` (the Stripe webhook). */
  raw?: boolean;
}

interface State {
  route: RouteDef | undefined;
  requestId: string;
  started: number;
  auth: Auth | undefined;
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

/** 401 without a valid caller, 403 for a role the route does not admit. Unknown routes fail closed. */
const authorize = (route: RouteDef | undefined, auth: Auth | undefined): void => {
  if (route?.access === 'public') return;
  if (!auth) throw new UnauthenticatedError();
  if (!route || !auth.role || !route.access.includes(auth.role)) throw new ForbiddenError(route?.forbiddenMessage);
};

/** 413 over the route's limit (default 64 KiB). */
const checkSize = (route: RouteDef | undefined, raw: string): void => {
  const limit = route?.bodyLimit ?? DEFAULT_BODY_LIMIT;
  if (Buffer.byteLength(raw, 'utf8') > limit) {
    throw new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${Math.floor(limit / 1024)} KiB.`);
  }
};

/** 415 for a body that is not JSON, 400 for malformed JSON or a schema miss (strict schemas: unknown fields too). */
const parseBody = <B>(headers: Record<string, string | undefined>, raw: string, schema: z.ZodType<B>): B => {
  let value: unknown = undefined;
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
  return validate(schema, value);
};

const validate = <T>(schema: z.ZodType<T>, value: unknown): T => {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ValidationError('The request is not valid.', zodDetails(parsed.error));
  return parsed.data;
};

/** Per-invocation state, keyed by the event object middy passes to the middlewares and the handler. */
const states = new WeakMap<HttpEvent, State>();

const stateOf = (event: HttpEvent, context?: Context): State => {
  let state = states.get(event);
  if (!state) {
    state = {
      route: findRoute(event.routeKey),
      requestId: event.requestContext?.requestId ?? context?.awsRequestId ?? randomUUID(),
      started: performance.now(),
      auth: authFromClaims(event.requestContext?.authorizer?.jwt?.claims),
    };
    states.set(event, state);
  }
  return state;
};

const toResult = (value: unknown, requestId: string): HttpResult => {
  const reply = value instanceof Reply ? value : new Reply(200, value ?? null);
  return {
    statusCode: reply.status,
    headers: { ...jsonHeaders(requestId), ...reply.headers },
    body: reply.status === 204 ? '' : JSON.stringify(reply.body),
  };
};

/**
 * The one way to write an HTTP handler: parse with the contract, call one use case, map the result.
 *   export const handler = httpRoute({ body: createCourseBody }, ({ body, auth }) => createCourse(deps, ...));
 * Cross-cutting, in this order: request id and one log line per request; error -> contract body (never a raw
 * error); the caller's role against the route table's `access`; body size, media type, JSON and schema.
 */
export const httpRoute = <B = undefined, Q = undefined>(
  spec: RouteSpec<B, Q>,
  useCase: (request: HttpRequest<B, Q>) => Promise<unknown> | unknown,
) =>
  middy<HttpEvent, HttpResult>()
    .use({
      name: 'request-log-and-errors',
      before: (request) => {
        stateOf(request.event, request.context);
      },
      after: (request) => {
        const state = stateOf(request.event, request.context);
        logger.info('request', {
          requestId: state.requestId,
          route: request.event.routeKey,
          status: request.response?.statusCode,
          durationMs: Math.round(performance.now() - state.started),
          userId: state.auth?.userId,
          role: state.auth?.role,
        });
      },
      onError: (request) => {
        const state = stateOf(request.event ?? ({} as HttpEvent), request.context);
        const mapped = mapError(request.error, state.requestId);
        const fields = {
          requestId: state.requestId,
          route: request.event?.routeKey,
          status: mapped.status,
          code: mapped.body.error.code,
          durationMs: Math.round(performance.now() - state.started),
          userId: state.auth?.userId,
          role: state.auth?.role,
        };
        if (mapped.unexpected) logger.error('request failed', { ...fields, ...describeError(request.error) });
        else logger.info('request', fields);
        request.response = { statusCode: mapped.status, headers: jsonHeaders(state.requestId), body: JSON.stringify(mapped.body) };
      },
    })
    .handler(async (event, context) => {
      const state = stateOf(event, context);
      authorize(state.route, state.auth);
      const headers = lowerCaseHeaders(event.headers);
      const rawBody = decodeBody(event);
      checkSize(state.route, rawBody);
      const body = spec.body && !spec.raw ? parseBody(headers, rawBody, spec.body) : (undefined as B);
      const query = spec.query ? parseQuery(event.queryStringParameters, spec.query) : (undefined as Q);
      const result = await useCase({
        body,
        query,
        params: (event.pathParameters ?? {}) as Record<string, string>,
        headers,
        rawBody,
        auth: state.auth,
        requestId: state.requestId,
      });
      return toResult(result, state.requestId);
    });

const parseQuery = <Q>(params: Record<string, string | undefined> | undefined, schema: z.ZodType<Q>): Q =>
  validate(schema, params ?? {});
