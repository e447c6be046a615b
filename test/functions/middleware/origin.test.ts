import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetConfig } from '#functions/config.ts';
import { ISSUER_CACHE, STOREFRONT_CACHE } from '#functions/routes.ts';
import { NotFoundError } from '#core/errors.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';
import { forgetStoredProfiles } from '#middleware/account.ts';
import { NOT_THROUGH_EDGE, ORIGIN_HEADER } from '#middleware/origin.ts';
import { apiEvent, lambdaContext } from '#test/functions/http-event.ts';

/** Each handler counts its use case's runs: a refused request must not reach it. */
let runs = 0;
const me = httpRoute({ route: 'get-me' }, ({ auth }) => {
  runs++;
  return { userId: auth.userId };
});
const page = httpRoute({ route: 'public-landing-page' }, () => {
  runs++;
  return Reply.raw(200, '<h1>Page</h1>', { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=60' });
});
const course = httpRoute({ route: 'public-course' }, ({ params, viewer }) => {
  runs++;
  if (params['courseId'] === 'gone') throw new NotFoundError();
  return { viewer };
});
const issuer = httpRoute({ route: 'public-issuer' }, () => ({ id: 'issuer' }));

const withSecrets = (app: string | undefined, pages: string | undefined) => {
  if (app === undefined) delete process.env['ORIGIN_SECRET'];
  else process.env['ORIGIN_SECRET'] = app;
  if (pages === undefined) delete process.env['PAGES_ORIGIN_SECRET'];
  else process.env['PAGES_ORIGIN_SECRET'] = pages;
  resetConfig();
};

afterEach(() => {
  withSecrets(undefined, undefined);
  runs = 0;
});

// The caller's stored profile, which the middleware checks after the token (middleware/account.ts): u1, a creator.
const dynamo = mockClient(DynamoDBDocumentClient);
beforeEach(() => {
  forgetStoredProfiles();
  dynamo.reset();
  dynamo.on(GetCommand, { Key: { pk: 'USER#u1', sk: 'PROFILE' } }).resolves({
    Item: { pk: 'USER#u1', sk: 'PROFILE', id: 'u1', email: 'u1@example.com', role: 'creator', createdAt: '2026-11-01T10:00:00.000Z' },
  });
});

const ME = { routeKey: 'GET /api/me', sub: 'u1', groups: ['creator'] };
const PAGE = { routeKey: 'GET /api/public/pages/{slug}', pathParameters: { slug: 'acme' } };

describe('the origin header (decision 0028)', () => {
  it("refuses a request without the app distribution's header 403, before the caller or the use case are looked at", async () => {
    withSecrets('app-secret', 'pages-secret');
    for (const headers of [{}, { [ORIGIN_HEADER]: 'wrong' }, { [ORIGIN_HEADER]: 'pages-secret' }, { [ORIGIN_HEADER]: 'app-secret-and-more' }] as Record<string, string>[]) {
      const res = await me(apiEvent({ ...ME, headers }), lambdaContext);
      expect(res.statusCode).toBe(403);
      expect(JSON.parse(res.body!)).toEqual({ error: { code: 'FORBIDDEN', message: NOT_THROUGH_EDGE } });
    }
    // Even an unauthenticated caller learns only that: no 401 that would tell the route exists behind a sign-in.
    expect((await me(apiEvent({ routeKey: 'GET /api/me' }), lambdaContext)).statusCode).toBe(403);
    expect(runs).toBe(0);
    expect((await me(apiEvent({ ...ME, headers: { [ORIGIN_HEADER]: 'app-secret' } }), lambdaContext)).statusCode).toBe(200);
    expect(runs).toBe(1);
  });

  it("serves the published page only with the pages distribution's header: the app's header or none is 404", async () => {
    withSecrets('app-secret', 'pages-secret');
    for (const headers of [{}, { [ORIGIN_HEADER]: 'app-secret' }, { [ORIGIN_HEADER]: 'guess' }] as Record<string, string>[]) {
      const res = await page(apiEvent({ ...PAGE, headers }), lambdaContext);
      expect(res.statusCode).toBe(404);
      expect(JSON.parse(res.body!).error.code).toBe('NOT_FOUND');
    }
    expect(runs).toBe(0);
    const served = await page(apiEvent({ ...PAGE, headers: { [ORIGIN_HEADER]: 'pages-secret' } }), lambdaContext);
    expect(served).toMatchObject({ statusCode: 200, body: '<h1>Page</h1>' });
  });

  it('checks neither when not configured (unit tests, a local cloud without LOCAL_EDGE_ONLY for the app one)', async () => {
    expect((await me(apiEvent(ME), lambdaContext)).statusCode).toBe(200);
    expect((await page(apiEvent(PAGE), lambdaContext)).statusCode).toBe(200);
    withSecrets(undefined, 'pages-secret');
    expect((await me(apiEvent(ME), lambdaContext)).statusCode).toBe(200);
    expect((await page(apiEvent(PAGE), lambdaContext)).statusCode).toBe(404);
  });
});

describe('Cache-Control from the route table', () => {
  it("puts a cacheable route's value on its 200 only: its errors stay no-store, other routes no-store", async () => {
    const ok = await course(apiEvent({ routeKey: 'GET /api/public/courses/{courseId}', pathParameters: { courseId: 'c1' } }), lambdaContext);
    expect(ok.headers?.['cache-control']).toBe(STOREFRONT_CACHE);
    const gone = await course(apiEvent({ routeKey: 'GET /api/public/courses/{courseId}', pathParameters: { courseId: 'gone' } }), lambdaContext);
    expect(gone.statusCode).toBe(404);
    expect(gone.headers?.['cache-control']).toBe('no-store');
    expect((await issuer(apiEvent({ routeKey: 'GET /api/public/issuer' }), lambdaContext)).headers?.['cache-control']).toBe(ISSUER_CACHE);
    expect((await me(apiEvent(ME), lambdaContext)).headers?.['cache-control']).toBe('no-store');
  });
});

describe('the viewer', () => {
  it("is CloudFront's viewer address (IPv4 or IPv6, port cut) and user agent, else the connection's", async () => {
    const viewerOf = async (headers: Record<string, string>) =>
      JSON.parse((await course(apiEvent({ routeKey: 'GET /api/public/courses/{courseId}', pathParameters: { courseId: 'c1' }, headers }), lambdaContext)).body!).viewer;
    expect(await viewerOf({ 'cloudfront-viewer-address': '203.0.113.7:46532', 'user-agent': 'Firefox' })).toEqual({ ip: '203.0.113.7', userAgent: 'Firefox' });
    expect(await viewerOf({ 'cloudfront-viewer-address': '2001:db8::1:443' })).toEqual({ ip: '2001:db8::1', userAgent: 'vitest' });
    expect(await viewerOf({})).toEqual({ ip: '127.0.0.1', userAgent: 'vitest' });
  });
});
