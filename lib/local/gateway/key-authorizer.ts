import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { eventHandlers, routeKey, type RouteDef } from '#functions/routes.ts';
import { type Handler, lambdaContext, loadHandler } from '../handlers.ts';

/** API Gateway keeps a Lambda authorizer's answer this long per identity source (the route's `resultsCacheTtl`). */
export const KEY_AUTHORIZER_CACHE_MS = 60_000;

/**
 * The public API's Lambda authorizer as API Gateway runs it (decision 0052): an HTTP API request-authorizer event
 * (payload 2.0) with the Authorization header as its identity source, a simple response (`isAuthorized`, `context`),
 * cached per header value for a minute. No header at all is refused before the function runs (401). Returns the
 * `context` to put under `requestContext.authorizer.lambda`, or undefined for 401.
 */
export const keyAuthorizer = (opts: { authorizerOf?: () => Promise<Handler>; now?: () => number } = {}) => {
  const load = opts.authorizerOf ?? (() => loadHandler(eventHandlers.apiKeyAuthorizer.handler));
  const now = opts.now ?? Date.now;
  const cache = new Map<string, { until: number; context: Record<string, unknown> | undefined }>();
  return async (route: RouteDef, authorization: string | undefined, requestId: string): Promise<Record<string, unknown> | undefined> => {
    if (!authorization) return undefined;
    const hit = cache.get(authorization);
    if (hit && hit.until > now()) return hit.context;
    const event: APIGatewayRequestAuthorizerEventV2 = {
      version: '2.0',
      type: 'REQUEST',
      routeArn: `arn:aws:execute-api:local:000000000000:local/$default/${route.method}${route.path}`,
      identitySource: [authorization],
      routeKey: routeKey(route),
      rawPath: route.path,
      rawQueryString: '',
      cookies: [],
      headers: { authorization },
      requestContext: {
        accountId: '000000000000',
        apiId: 'local',
        domainName: 'localhost',
        domainPrefix: 'localhost',
        http: { method: route.method, path: route.path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: '' },
        requestId,
        routeKey: routeKey(route),
        stage: '$default',
        time: new Date(now()).toISOString(),
        timeEpoch: now(),
      },
      pathParameters: {},
      stageVariables: {},
    };
    const answer = (await (await load())(event, lambdaContext(eventHandlers.apiKeyAuthorizer.name, 10_000))) as { isAuthorized?: unknown; context?: Record<string, unknown> };
    const context = answer?.isAuthorized === true ? (answer.context ?? {}) : undefined;
    if (cache.size > 10_000) cache.clear();
    cache.set(authorization, { until: now() + KEY_AUTHORIZER_CACHE_MS, context });
    return context;
  };
};
