import { Duration, NestedStack, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  AuthorizerPayloadVersion,
  type CfnStage,
  type DomainName,
  type HttpApi,
  HttpAuthorizer,
  HttpAuthorizerType,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IUserPool, IUserPoolClient } from 'aws-cdk-lib/aws-cognito';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { DEFAULT_THROTTLE, eventHandlers, isKeyAccess, type RouteDef, routeKey } from '#functions/routes.ts';
import { AppFunction, type FunctionPlatform } from './app-function.ts';
import type { TableAccess } from './function-access.ts';
import { FIRST_GROUP_ROUTES } from './first-route-groups.ts';

/** A route of functions/routes.ts; its `uses` decide the function's grants and environment variables. */
export type ApiRoute = RouteDef;

export interface ApiRoutesProps {
  readonly httpApi: HttpApi;
  readonly userPool: IUserPool;
  readonly userPoolClient: IUserPoolClient;
  readonly routes: readonly ApiRoute[];
  readonly platform: FunctionPlatform;
  /** The API's own custom domain (only CloudFront calls it): the stage is mapped onto it. */
  readonly domain?: DomainName;
}

/** What the route declares (`table: 'none'`), else only reads for GET and read-write for every other method. */
export const tableAccessOf = (route: Pick<RouteDef, 'method' | 'table'>): TableAccess =>
  route.table ?? (route.method === 'GET' ? 'read' : 'read-write');

/** `get-me` -> `GetMe`: construct ids (and so logical ids) stay stable while the route's name does. */
export const pascalCase = (name: string): string =>
  name
    .split(/[^a-zA-Z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

/**
 * CloudFormation takes at most 500 resources per stack, and a route brings seven or more (function, role, policy, log
 * group, integration, permission, route): one stack holds about 70 routes. The routes' resources are spread over this
 * many nested stacks instead, each route's by a hash of its name, so adding a route never moves another one (a moved
 * function would be replaced). Eight groups hold about 560 routes; docs/decisions/0017-api-route-groups.md.
 */
export const ROUTE_GROUPS = 8;

/**
 * The nested stack a route's resources live in: FNV-1a of its name modulo 4, in the first four groups for the routes
 * deployed there (FIRST_GROUP_ROUTES), in the next four for every later one. Stable for ever.
 */
export const routeGroupOf = (name: string): number => {
  let hash = 0x811c9dc5;
  for (const char of name) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return (FIRST_GROUP_ROUTES.has(name) ? 0 : 4) + (hash % 4);
};

/**
 * The HTTP API's contents, generated from the route table: one function per route, the Cognito JWT authorizer on
 * every route that is not public, the `$default` stage with default and per-route throttling and JSON access logs.
 * The authorizer only authenticates; each route's roles are enforced by the handler middleware (from routes.ts).
 * The authorizer and the stage stay here; each route's function, integration and route sit in its group's nested stack.
 */
export class ApiRoutes extends Construct {
  readonly functions: Record<string, AppFunction> = {};
  readonly stage: HttpStage;
  /** The stage's JSON access log (one line per request, with its `status`). */
  readonly accessLogs: LogGroup;

  constructor(scope: Construct, id: string, props: ApiRoutesProps) {
    super(scope, id);

    // Declared here rather than through HttpUserPoolAuthorizer, which would place it beside the HTTP API (Web
    // stack): the authorizer belongs with the routes. Audience: the SPA's client (access tokens carry client_id).
    const cognito = new HttpAuthorizer(this, 'CognitoAuthorizer', {
      httpApi: props.httpApi,
      authorizerName: 'cognito',
      type: HttpAuthorizerType.JWT,
      identitySource: ['$request.header.Authorization'],
      jwtAudience: [props.userPoolClient.userPoolClientId],
      jwtIssuer: `https://cognito-idp.${Stack.of(this).region}.amazonaws.com/${props.userPool.userPoolId}`,
    });
    const authorizer = HttpAuthorizer.fromHttpAuthorizerAttributes(this, 'Cognito', {
      authorizerId: cognito.authorizerId,
      authorizerType: HttpAuthorizerType.JWT,
    });

    // The public API's key authorizer (decision 0052): a Lambda authorizer with simple responses, its answer cached a
    // minute per Authorization header. Declared as the Cognito one is (here, by attributes in the groups); its function
    // reads the key's lookup and writes its last use at most once a minute.
    const keyFunction = new AppFunction(this, pascalCase(eventHandlers.apiKeyAuthorizer.name), {
      ...eventHandlers.apiKeyAuthorizer,
      profile: 'crud',
      table: 'read-write',
      uses: [],
      platform: props.platform,
    });
    this.functions[eventHandlers.apiKeyAuthorizer.name] = keyFunction;
    const keys = new HttpAuthorizer(this, 'KeyAuthorizer', {
      httpApi: props.httpApi,
      authorizerName: 'api-key',
      type: HttpAuthorizerType.LAMBDA,
      identitySource: ['$request.header.Authorization'],
      enableSimpleResponses: true,
      payloadFormatVersion: AuthorizerPayloadVersion.VERSION_2_0,
      authorizerUri: `arn:${Stack.of(this).partition}:apigateway:${Stack.of(this).region}:lambda:path/2015-03-31/functions/${keyFunction.function.functionArn}/invocations`,
      resultsCacheTtl: Duration.seconds(60),
    });
    keyFunction.function.addPermission('InvokedByKeyAuthorizer', {
      principal: new ServicePrincipal('apigateway.amazonaws.com'),
      sourceArn: Stack.of(this).formatArn({ service: 'execute-api', resource: props.httpApi.apiId, resourceName: `authorizers/${keys.authorizerId}` }),
    });
    // A route names a Lambda authorizer's type as CUSTOM (HttpLambdaAuthorizer's `authorizationType`).
    const keyAuthorizer = HttpAuthorizer.fromHttpAuthorizerAttributes(this, 'Keys', { authorizerId: keys.authorizerId, authorizerType: 'CUSTOM' });

    // A group is made when its first route comes: a nested stack with no resources is not a valid template.
    const groups = new Map<number, NestedStack>();
    const groupOf = (index: number) =>
      groups.get(index) ?? groups.set(index, new NestedStack(this, `Group${index}`, { description: `Course platform API routes, group ${index} of ${ROUTE_GROUPS}` })).get(index)!;
    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
    const created: HttpRoute[] = [];
    for (const route of props.routes) {
      const name = pascalCase(route.name);
      const group = groupOf(routeGroupOf(route.name));
      const fn = new AppFunction(group, name, {
        name: route.name,
        handler: route.handler,
        profile: route.profile ?? 'crud',
        table: tableAccessOf(route),
        uses: route.uses ?? [],
        ...(route.queues?.length ? { queues: route.queues } : {}),
        platform: props.platform,
        httpRoute: true,
      });
      this.functions[route.name] = fn;
      const httpRoute = new HttpRoute(group, `${name}Route`, {
        httpApi: props.httpApi,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${name}Integration`, fn.function),
        ...(route.access === 'public' ? {} : { authorizer: isKeyAccess(route.access) ? keyAuthorizer : authorizer }),
      });
      if (route.access === 'public') {
        Validations.of(httpRoute).acknowledge({
          id: 'AwsSolutions-APIG4',
          reason: `${routeKey(route)} is public by design (access: 'public' in functions/routes.ts).`,
        });
      }
      created.push(httpRoute);
      const throttle = route.throttle ?? DEFAULT_THROTTLE;
      routeSettings[routeKey(route)] = { ThrottlingRateLimit: throttle.rate, ThrottlingBurstLimit: throttle.burst };
    }

    this.accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = new HttpStage(this, 'Stage', {
      httpApi: props.httpApi,
      stageName: '$default',
      autoDeploy: true,
      ...(props.domain ? { domainMapping: { domainName: props.domain } } : {}),
      throttle: { rateLimit: DEFAULT_THROTTLE.rate, burstLimit: DEFAULT_THROTTLE.burst },
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            time: '$context.requestTime',
            routeKey: '$context.routeKey',
            status: '$context.status',
            latency: '$context.responseLatency',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
            authorizerError: '$context.authorizer.error',
            user: '$context.authorizer.claims.sub',
            responseLength: '$context.responseLength',
          }),
        ),
      },
    });
    // Route-level limits live on the stage, keyed by route key: the routes must exist before the stage names them.
    (this.stage.node.defaultChild as CfnStage).routeSettings = routeSettings;
    for (const route of created) this.stage.node.addDependency(route);
  }
}
