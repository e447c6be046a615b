import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RouteDef } from '#functions/routes.ts';
import { buildEvent, clfTime, routeMatcher, toGatewayClaims, toResponse, type IncomingRequest } from '#lib/local/gateway/event.ts';

const routes: RouteDef[] = [
  { name: 'get-course', method: 'GET', path: '/api/courses/{courseId}', handler: 'http/get-course', access: ['creator'] },
  { name: 'new-course-form', method: 'GET', path: '/api/courses/new', handler: 'http/x', access: ['creator'] },
  { name: 'get-me', method: 'GET', path: '/api/me', handler: 'http/get-me', access: ['creator'] },
  { name: 'stripe-webhook', method: 'POST', path: '/api/webhooks/stripe', handler: 'webhooks/stripe', access: 'public' },
];
const match = routeMatcher(routes);

const request = (over: Partial<IncomingRequest> = {}): IncomingRequest => ({
  method: 'GET',
  url: '/api/me',
  headers: { host: 'localhost:3001', 'user-agent': 'vitest' },
  body: Buffer.alloc(0),
  sourceIp: '127.0.0.1',
  ...over,
});
const now = new Date('2026-03-12T19:03:58.123Z');

describe('the local gateway route matching', () => {
  it('matches {param} segments and decodes them into pathParameters', () => {
    expect(match('GET', '/api/courses/c%201')).toEqual({ route: routes[0], pathParameters: { courseId: 'c 1' } });
  });

  it('prefers a literal segment over a parameter, as API Gateway does', () => {
    expect(match('GET', '/api/courses/new')?.route.name).toBe('new-course-form');
  });

  it('finds no route for another method, an extra segment or an empty parameter', () => {
    expect(match('POST', '/api/me')).toBeUndefined();
    expect(match('GET', '/api/me/x')).toBeUndefined();
    expect(match('GET', '/api/courses/')).toBeUndefined();
  });
});

describe('claims as API Gateway hands them over', () => {
  it('turns every claim into a string and arrays into "[a b]"', () => {
    expect(
      toGatewayClaims({ sub: 'u1', 'cognito:groups': ['admin', 'creator'], exp: 1795262400, email_verified: true }),
    ).toEqual({ sub: 'u1', 'cognito:groups': '[admin creator]', exp: '1795262400', email_verified: 'true' });
  });

  it('writes objects in Go map notation with sorted keys', () => {
    expect(toGatewayClaims({ address: { b: 2, a: 'x' } })).toEqual({ address: 'map[a:x b:2]' });
  });
});

describe('the HTTP API payload v2 event', () => {
  it('carries the route key, the verified claims and the request context like API Gateway', () => {
    const event = buildEvent(match('GET', '/api/me')!, request(), {
      requestId: 'req-1',
      now,
      claims: { sub: 'u1', 'cognito:groups': ['creator'], scope: 'aws.cognito.signin.user.admin' },
    });
    expect(event).toMatchObject({
      version: '2.0',
      routeKey: 'GET /api/me',
      rawPath: '/api/me',
      rawQueryString: '',
      isBase64Encoded: false,
      headers: { host: 'localhost:3001', 'user-agent': 'vitest' },
      requestContext: {
        routeKey: 'GET /api/me',
        stage: '$default',
        requestId: 'req-1',
        domainName: 'localhost:3001',
        http: { method: 'GET', path: '/api/me', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'vitest' },
        time: '12/Mar/2026:19:03:58 +0000',
        timeEpoch: now.getTime(),
        authorizer: {
          jwt: {
            claims: { sub: 'u1', 'cognito:groups': '[creator]', scope: 'aws.cognito.signin.user.admin' },
            scopes: ['aws.cognito.signin.user.admin'],
          },
        },
      },
    });
    expect(event).not.toHaveProperty('body');
    expect(event).not.toHaveProperty('pathParameters');
    expect(event).not.toHaveProperty('queryStringParameters');
  });

  it('has no authorizer on a public route', () => {
    const event = buildEvent(match('POST', '/api/webhooks/stripe')!, request({ method: 'POST', url: '/api/webhooks/stripe' }), {
      requestId: 'r',
      now,
    });
    expect(event.requestContext).not.toHaveProperty('authorizer');
  });

  it('lower-cases headers, joins repeated values with commas and moves cookies out of the headers', () => {
    const event = buildEvent(
      match('GET', '/api/me')!,
      request({ url: '/api/me?tag=a&tag=b&q=x%20y', headers: { 'X-Trace': 'abc', accept: ['a', 'b'] as unknown as string, cookie: 'a=1; b=2' } }),
      { requestId: 'r', now },
    );
    expect(event.headers).toEqual({ 'x-trace': 'abc', accept: 'a,b' });
    expect(event.cookies).toEqual(['a=1', 'b=2']);
    expect(event.rawQueryString).toBe('tag=a&tag=b&q=x%20y');
    expect(event.queryStringParameters).toEqual({ tag: 'a,b', q: 'x y' });
  });

  it('passes a JSON body as text and a binary body base64-encoded', () => {
    const json = buildEvent(
      match('POST', '/api/webhooks/stripe')!,
      request({ method: 'POST', url: '/api/webhooks/stripe', headers: { 'content-type': 'application/json' }, body: Buffer.from('{"a":1}') }),
      { requestId: 'r', now },
    );
    expect(json).toMatchObject({ body: '{"a":1}', isBase64Encoded: false });
    const binary = buildEvent(
      match('POST', '/api/webhooks/stripe')!,
      request({ method: 'POST', url: '/api/webhooks/stripe', headers: { 'content-type': 'image/png' }, body: Buffer.from([0, 255]) }),
      { requestId: 'r', now },
    );
    expect(binary).toMatchObject({ body: 'AP8=', isBase64Encoded: true });
  });

  it('has the shape of the sample event used by npm run invoke', () => {
    const sample = JSON.parse(readFileSync('events/api-get-me.json', 'utf8')) as Record<string, unknown>;
    const event = buildEvent(match('GET', '/api/me')!, request(), { requestId: 'r', now, claims: { sub: 'u1' } });
    expect(Object.keys(event).sort()).toEqual(Object.keys(sample).sort());
  });
});

describe('turning a handler result into a response', () => {
  it('uses a structured result as is, decoding a base64 body', () => {
    const response = toResponse({ statusCode: 201, headers: { 'Content-Type': 'text/plain' }, body: 'aGk=', isBase64Encoded: true, cookies: ['s=1'] });
    expect(response).toEqual({ statusCode: 201, headers: { 'content-type': 'text/plain' }, cookies: ['s=1'], body: Buffer.from('hi') });
  });

  it('answers a plain object with 200 and its JSON, like API Gateway', () => {
    const response = toResponse({ status: 'ok' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.body.toString()).toBe('{"status":"ok"}');
  });
});

it('formats requestContext.time in the common log format API Gateway uses', () => {
  expect(clfTime(new Date('2026-01-05T03:04:05Z'))).toBe('05/Jan/2026:03:04:05 +0000');
});
