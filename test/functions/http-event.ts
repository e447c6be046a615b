import type { Context } from 'aws-lambda';
import type { HttpEvent } from '#middleware/http-route.ts';

/**
 * An API Gateway HTTP API (payload v2) event as the JWT authorizer delivers it: claims flattened to strings,
 * `cognito:groups` as "[creator]".
 */
export const apiEvent = (input: {
  routeKey: string;
  sub?: string;
  groups?: string[];
  /** The token's `token_use` claim: Cognito access tokens say 'access' (the default), ID tokens 'id'. */
  tokenUse?: 'access' | 'id';
  body?: string;
  headers?: Record<string, string>;
  pathParameters?: Record<string, string>;
  queryStringParameters?: Record<string, string>;
}): HttpEvent => {
  const [method = 'GET', path = '/'] = input.routeKey.split(' ');
  return {
    version: '2.0',
    routeKey: input.routeKey,
    rawPath: path,
    rawQueryString: '',
    headers: { 'content-type': 'application/json', ...input.headers },
    ...(input.body === undefined ? {} : { body: input.body }),
    isBase64Encoded: false,
    ...(input.pathParameters ? { pathParameters: input.pathParameters } : {}),
    ...(input.queryStringParameters ? { queryStringParameters: input.queryStringParameters } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
      requestId: 'req-1',
      routeKey: input.routeKey,
      stage: '$default',
      time: '21/Nov/2026:12:00:00 +0000',
      timeEpoch: 1795000000000,
      authorizer: {
        principalId: '',
        integrationLatency: 0,
        jwt: {
          claims: input.sub
            ? { sub: input.sub, username: input.sub, token_use: input.tokenUse ?? 'access', 'cognito:groups': `[${(input.groups ?? []).join(' ')}]` }
            : {},
          scopes: [],
        },
      },
    },
  } as HttpEvent;
};

export const lambdaContext = { awsRequestId: 'aws-req-1', functionName: 'test' } as Context;

export const parse = (result: { statusCode?: number; body?: string }) => ({
  status: result.statusCode,
  body: result.body ? JSON.parse(result.body) : undefined,
});
