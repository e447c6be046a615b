import { DEFAULT_BODY_LIMIT, routeKey, routes, type RouteDef, type RouteName } from '#functions/routes.ts';

/**
 * What the HTTP middleware (http-route.ts) reads of its route, resolved: nothing else of the route table reaches a
 * handler at run time.
 *
 * From source (the local cloud, the tests) `handlerRoute` looks the route up in functions/routes.ts. In a Lambda
 * bundle this module is replaced (an esbuild alias of `#middleware/handler-route.ts`, lib/constructs/bundling.ts) by
 * one generated for that function, holding `describeRoute` of its own route alone and refusing any other name at cold
 * start: no bundle carries the whole table (docs/decisions/0022-route-table-out-of-bundles.md). Import it by that
 * alias only, and keep its one value export `handlerRoute`: the generated module has no other.
 */
export interface HandlerRoute {
  readonly name: string;
  /** `routeKey`: "GET /api/me", as API Gateway writes it into the event (and the route on every log line). */
  readonly key: string;
  /** 'public' = no token needed; otherwise the Cognito groups admitted. */
  readonly access: RouteDef['access'];
  /** Largest accepted body in bytes: the route's `bodyLimit` or the default. */
  readonly bodyLimit: number;
  readonly forbiddenMessage?: string;
  /** The route's `cacheControl`: its 200 answers carry it instead of `no-store`. */
  readonly cacheControl?: string;
  /** 'pages': only the pages origin's header admits it (middleware/origin.ts). */
  readonly origin?: 'pages';
  /** The plan feature a creator needs (functions/contracts/entitlements.ts): checked after the stored account. */
  readonly feature?: RouteDef['feature'];
}

/** The one resolution of a route into what the middleware reads: from source here, at bundle time by bundling.ts. */
export const describeRoute = (route: RouteDef): HandlerRoute => ({
  name: route.name,
  key: routeKey(route),
  access: route.access,
  bodyLimit: route.bodyLimit ?? DEFAULT_BODY_LIMIT,
  ...(route.forbiddenMessage === undefined ? {} : { forbiddenMessage: route.forbiddenMessage }),
  ...(route.cacheControl === undefined ? {} : { cacheControl: route.cacheControl }),
  ...(route.origin === undefined ? {} : { origin: route.origin }),
  ...(route.feature === undefined ? {} : { feature: route.feature }),
});

/** The route a handler declares by name; throws when the table has no such route. */
export const handlerRoute = (name: RouteName): HandlerRoute => {
  const route = routes.find((r) => r.name === name);
  if (!route) throw new Error(`No route is named ${JSON.stringify(name)} in functions/routes.ts`);
  return describeRoute(route);
};
