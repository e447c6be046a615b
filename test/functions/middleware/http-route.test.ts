import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { idempotencyHeaders } from '#contracts/common.ts';
import { AppError, NotFoundError } from '#core/errors.ts';
import { ACCOUNT_CACHE_MS, checkPlan, forgetStoredProfiles, storedPlan, storedProfile } from '#middleware/account.ts';
import { parseGroups } from '#middleware/auth.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';
import { apiEvent, lambdaContext, parse } from '#test/functions/http-event.ts';

const ME = 'GET /api/me';
const echo = httpRoute({ route: 'get-me', body: z.strictObject({ title: z.string().min(1) }) }, ({ body, auth }) => ({ title: body.title, userId: auth.userId }));
const call = async (handler: typeof echo, event: Parameters<typeof echo>[0]) => parse(await handler(event, lambdaContext));

/**
 * The stored profiles the middleware reads (middleware/account.ts): u1 a creator, admin-1 an admin, learner-1 a learner;
 * and the subscriptions it reads for a creator's plan (u1 on Pro unless a test says otherwise).
 */
const dynamo = mockClient(DynamoDBDocumentClient);
const stored: Record<string, { role: string; disabled?: boolean }> = {};
const subscriptions: Record<string, { status: string; tier: 'starter' | 'pro' | null } | undefined> = {};
beforeEach(() => {
  forgetStoredProfiles();
  dynamo.reset();
  Object.assign(stored, { u1: { role: 'creator' }, 'admin-1': { role: 'admin' }, 'learner-1': { role: 'learner' } });
  for (const id of Object.keys(subscriptions)) delete subscriptions[id];
  subscriptions['u1'] = { status: 'active', tier: 'pro' };
  dynamo.on(GetCommand).callsFake((input: { Key: { pk: string; sk: string } }) => {
    const id = input.Key.pk.replace(/^USER#/, '');
    if (input.Key.sk === 'SUBSCRIPTION') {
      const sub = subscriptions[id];
      return { Item: sub ? { pk: input.Key.pk, sk: 'SUBSCRIPTION', ...sub } : undefined };
    }
    const profile = stored[id];
    return { Item: profile ? { pk: input.Key.pk, sk: 'PROFILE', id, email: `${id}@example.com`, createdAt: '2026-11-01T10:00:00.000Z', ...profile } : undefined };
  });
});

describe('the HTTP route middleware', () => {
  it('answers 401 UNAUTHENTICATED with the contract body when a protected route has no caller', async () => {
    const res = await call(echo, apiEvent({ routeKey: ME, body: '{"title":"x"}' }));
    expect(res).toEqual({ status: 401, body: { error: { code: 'UNAUTHENTICATED', message: expect.any(String) } } });
  });

  it('answers 403 FORBIDDEN to a signed-in caller whose group the route does not admit', async () => {
    const res = await call(echo, apiEvent({ routeKey: ME, sub: 'u1', groups: [], body: '{"title":"x"}' }));
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
  });

  it('answers 401 to an ID token: only access tokens identify a caller', async () => {
    const res = await call(echo, apiEvent({ routeKey: ME, sub: 'u1', groups: ['creator'], tokenUse: 'id', body: '{"title":"x"}' }));
    expect(res).toEqual({ status: 401, body: { error: { code: 'UNAUTHENTICATED', message: expect.any(String) } } });
  });

  it('fails closed on an event for another route than the handler was made for', async () => {
    const res = await call(echo, apiEvent({ routeKey: 'GET /api/nowhere', sub: 'u1', groups: ['admin'], body: '{"title":"x"}' }));
    expect(res.status).toBe(403);
  });

  it('runs the use case for an admitted role and answers 200 JSON', async () => {
    const res = await call(echo, apiEvent({ routeKey: ME, sub: 'u1', groups: ['creator'], body: '{"title":"Intro"}' }));
    expect(res).toEqual({ status: 200, body: { title: 'Intro', userId: 'u1' } });
  });

  it('rejects an unknown field with 400 VALIDATION_FAILED naming its path', async () => {
    const res = await call(echo, apiEvent({ routeKey: ME, sub: 'u1', groups: ['creator'], body: '{"title":"x","role":"admin"}' }));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(JSON.stringify(res.body.error.details)).toContain('role');
  });

  it('rejects a field of the wrong type with its path in details', async () => {
    const res = await call(echo, apiEvent({ routeKey: ME, sub: 'u1', groups: ['creator'], body: '{"title":42}' }));
    expect(res.body.error.details).toEqual([expect.objectContaining({ path: 'title' })]);
  });

  it('answers 400 for malformed JSON, and for a missing body naming the fields it misses', async () => {
    expect((await call(echo, apiEvent({ routeKey: ME, sub: 'u1', groups: ['creator'], body: '{"title":' }))).status).toBe(400);
    const missing = await call(echo, apiEvent({ routeKey: ME, sub: 'u1', groups: ['creator'] }));
    expect(missing.body.error.code).toBe('VALIDATION_FAILED');
    expect(missing.body.error.details).toEqual([expect.objectContaining({ path: 'title' })]);
  });

  it('takes a request without a body (and without a Content-Type) on a route whose contract has no required field', async () => {
    const action = httpRoute({ route: 'get-me', body: z.strictObject({ note: z.string().optional() }) }, ({ body }) => ({ body }));
    for (const body of [undefined, '', '  ']) {
      const event = apiEvent({ routeKey: ME, sub: 'u1', groups: ['creator'], ...(body === undefined ? {} : { body }) });
      delete event.headers['content-type'];
      expect(await call(action, event)).toEqual({ status: 200, body: { body: {} } });
    }
    // An empty JSON object still works, and a field of the wrong type is still refused.
    expect(await call(action, apiEvent({ routeKey: ME, sub: 'u1', groups: ['creator'], body: '{}' }))).toEqual({ status: 200, body: { body: {} } });
    expect((await call(action, apiEvent({ routeKey: ME, sub: 'u1', groups: ['creator'], body: '{"note":1}' }))).status).toBe(400);
  });

  it('answers 415 for a body that is not JSON', async () => {
    const res = await call(echo, apiEvent({ routeKey: ME, sub: 'u1', groups: ['creator'], body: 'title=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
    expect(res).toMatchObject({ status: 415, body: { error: { code: 'UNSUPPORTED_MEDIA_TYPE' } } });
  });

  it('answers 413 for a body over 64 KiB', async () => {
    const res = await call(echo, apiEvent({ routeKey: ME, sub: 'u1', groups: ['creator'], body: JSON.stringify({ title: 'x'.repeat(70_000) }) }));
    expect(res).toMatchObject({ status: 413, body: { error: { code: 'PAYLOAD_TOO_LARGE' } } });
  });

  it('maps a typed core error to its status', async () => {
    const missing = httpRoute({ route: 'get-me' }, () => {
      throw new NotFoundError('No such course.');
    });
    expect(await call(missing, apiEvent({ routeKey: ME, sub: 'learner-1', groups: ['learner'] }))).toEqual({
      status: 404,
      body: { error: { code: 'NOT_FOUND', message: 'No such course.' } },
    });
  });

  it('never lets a raw error reach the response: 500 INTERNAL with a request id, the cause only in the log', async () => {
    const boom = httpRoute({ route: 'get-me' }, () => {
      throw new Error('ECONNREFUSED 10.0.0.1 secret-table-name');
    });
    const res = await call(boom, apiEvent({ routeKey: ME, sub: 'admin-1', groups: ['admin'] }));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: { code: 'INTERNAL', message: expect.any(String), details: { requestId: 'req-1' } } });
    expect(JSON.stringify(res.body)).not.toContain('ECONNREFUSED');
  });

  it('passes a Reply through with its status and headers', async () => {
    const created = httpRoute({ route: 'get-me' }, () => new Reply(201, { id: 'c1' }, { location: '/api/courses/c1' }));
    const res = await created(apiEvent({ routeKey: ME, sub: 'u1', groups: ['creator'] }), lambdaContext);
    expect(res.statusCode).toBe(201);
    expect(res.headers).toMatchObject({ location: '/api/courses/c1', 'x-request-id': 'req-1' });
  });

  it('sends a raw Reply (HTML) as it is, with its own content-type and cache headers', async () => {
    const html = '<!DOCTYPE html><html><body><h1>Hi</h1></body></html>';
    const page = httpRoute({ route: 'health' }, () => Reply.raw(404, html, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=60' }));
    const res = await page(apiEvent({ routeKey: 'GET /api/health' }), lambdaContext);
    expect(res).toMatchObject({ statusCode: 404, body: html });
    expect(res.headers).toEqual({ 'content-type': 'text/html; charset=utf-8', 'cache-control': 'public, max-age=60', 'x-request-id': 'req-1' });
  });

  it('lets anyone call a public route', async () => {
    const open = httpRoute({ route: 'health' }, ({ auth }) => ({ ok: true, caller: auth ?? null }));
    expect(await call(open, apiEvent({ routeKey: 'GET /api/health' }))).toEqual({ status: 200, body: { ok: true, caller: null } });
  });

  it('keeps AppError details such as zod issues', async () => {
    const conflict = httpRoute({ route: 'get-me' }, () => {
      throw new AppError('CONFLICT', 'Already enrolled.', { email: 'a@example.com' });
    });
    expect((await call(conflict, apiEvent({ routeKey: ME, sub: 'u1', groups: ['creator'] }))).body.error.details).toEqual({ email: 'a@example.com' });
  });
});

describe("the caller's stored account (issue 27 point 9)", () => {
  const adminOnly = httpRoute({ route: 'list-users' }, ({ auth }) => ({ role: auth.role }));
  const asAdmin = () => apiEvent({ routeKey: 'GET /api/admin/users', sub: 'admin-1', groups: ['admin'] });

  it('refuses a disabled account with 403 ACCOUNT_DISABLED although its token is valid', async () => {
    stored['u1'] = { role: 'creator', disabled: true };
    const res = await call(echo, apiEvent({ routeKey: ME, sub: 'u1', groups: ['creator'], body: '{"title":"x"}' }));
    expect(res).toEqual({ status: 403, body: { error: { code: 'ACCOUNT_DISABLED', message: expect.stringContaining('disabled') } } });
  });

  it("refuses a token whose role the account no longer has (demoted), on the old role's routes", async () => {
    stored['admin-1'] = { role: 'learner' };
    const res = await call(adminOnly, asAdmin());
    expect(res).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN', message: expect.stringContaining('sign in again') } } });
  });

  it('refuses a caller with no stored profile, and runs the use case as the stored role otherwise', async () => {
    const ghost = await call(echo, apiEvent({ routeKey: ME, sub: 'ghost', groups: ['creator'], body: '{"title":"x"}' }));
    expect(ghost).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    expect(await call(adminOnly, asAdmin())).toEqual({ status: 200, body: { role: 'admin' } });
  });

  it('reads the profile once for a burst of calls, and does not read it for a role the token already fails', async () => {
    for (let i = 0; i < 3; i++) expect((await call(adminOnly, asAdmin())).status).toBe(200);
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(1);
    expect((await call(adminOnly, apiEvent({ routeKey: 'GET /api/admin/users', sub: 'u1', groups: ['creator'] }))).status).toBe(403);
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(1);
  });
});

describe('remembering a stored profile', () => {
  const profile = { id: 'p1', email: 'p1@example.com', role: 'creator' as const, createdAt: '2026-11-01T10:00:00.000Z' };

  it(`keeps a profile for ${ACCOUNT_CACHE_MS} ms, then reads it again (a change reaches every instance within that window)`, async () => {
    let reads = 0;
    const read = async () => ({ ...profile, disabled: ++reads > 1 });
    expect(await storedProfile('p1', read, 1_000)).toMatchObject({ disabled: false });
    expect(await storedProfile('p1', read, 1_000 + ACCOUNT_CACHE_MS - 1)).toMatchObject({ disabled: false });
    expect(await storedProfile('p1', read, 1_000 + ACCOUNT_CACHE_MS)).toMatchObject({ disabled: true });
    expect(reads).toBe(2);
  });

  it('does not remember a profile that was not found or a read that failed', async () => {
    let reads = 0;
    const missing = async () => {
      reads++;
      return undefined;
    };
    expect(await storedProfile('p2', missing, 1_000)).toBeUndefined();
    await Promise.resolve();
    expect(await storedProfile('p2', missing, 1_001)).toBeUndefined();
    const failing = () => Promise.reject(new Error('throttled'));
    await expect(storedProfile('p3', failing, 1_000)).rejects.toThrow('throttled');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await storedProfile('p3', async () => profile, 1_001)).toEqual(profile);
    expect(reads).toBe(2);
  });
});

describe("the caller's plan (issue 29: a route's feature)", () => {
  // POST /api/courses needs `courses` (Starter and Pro), POST /api/affiliates `affiliates` (Pro).
  const createCourse = httpRoute({ route: 'create-course' }, ({ auth }) => ({ created: true, by: auth.userId }));
  const createAffiliate = httpRoute({ route: 'create-affiliate' }, () => ({ created: true }));
  const asCreator = (routeKey: string) => apiEvent({ routeKey, sub: 'u1', groups: ['creator'] });
  const subscriptionReads = () => dynamo.commandCalls(GetCommand).filter((c) => c.args[0].input.Key?.['sk'] === 'SUBSCRIPTION').length;

  it('refuses a creator who never subscribed with 403 PLAN_REQUIRED naming Starter, before the use case runs', async () => {
    subscriptions['u1'] = undefined;
    let ran = false;
    const guarded = httpRoute({ route: 'create-course' }, () => {
      ran = true;
      return {};
    });
    const res = await call(guarded, asCreator('POST /api/courses'));
    expect(res).toEqual({ status: 403, body: { error: { code: 'PLAN_REQUIRED', message: expect.stringContaining('Starter'), details: { requiredPlan: 'starter' } } } });
    expect(ran).toBe(false);
  });

  it('refuses a Starter creator a Pro feature with requiredPlan "pro", and lets them use a Starter one', async () => {
    subscriptions['u1'] = { status: 'active', tier: 'starter' };
    const refused = await call(createAffiliate, asCreator('POST /api/affiliates'));
    expect(refused).toEqual({ status: 403, body: { error: { code: 'PLAN_REQUIRED', message: expect.stringContaining('Pro'), details: { requiredPlan: 'pro' } } } });
    expect(await call(createCourse, asCreator('POST /api/courses'))).toEqual({ status: 200, body: { created: true, by: 'u1' } });
  });

  it('counts a trial as Starter, keeps a past-due plan, and treats a canceled subscription as no plan', async () => {
    const outcome = async (sub: { status: string; tier: 'starter' | 'pro' | null }, handler: typeof createCourse, routeKey: string) => {
      forgetStoredProfiles();
      subscriptions['u1'] = sub;
      return (await call(handler, asCreator(routeKey))).status;
    };
    expect(await outcome({ status: 'trialing', tier: 'pro' }, createCourse, 'POST /api/courses')).toBe(200);
    expect(await outcome({ status: 'trialing', tier: 'pro' }, createAffiliate, 'POST /api/affiliates')).toBe(403);
    expect(await outcome({ status: 'past_due', tier: 'pro' }, createAffiliate, 'POST /api/affiliates')).toBe(200);
    expect(await outcome({ status: 'canceled', tier: 'pro' }, createCourse, 'POST /api/courses')).toBe(403);
  });

  it('reads no plan for a route without a feature, for an admin or another role, nor for a refused role', async () => {
    subscriptions['u1'] = undefined;
    expect((await call(echo, apiEvent({ routeKey: ME, sub: 'u1', groups: ['creator'], body: '{"title":"x"}' }))).status).toBe(200);
    expect((await call(createCourse, apiEvent({ routeKey: 'POST /api/courses', sub: 'learner-1', groups: ['learner'] }))).status).toBe(403);
    expect(subscriptionReads()).toBe(0);
    // An admin is never checked (the rule, as a route admitting admins would apply it).
    let asked = false;
    const plan = async () => {
      asked = true;
      return 'none' as const;
    };
    await expect(checkPlan('admin', 'courses', plan)).resolves.toBeUndefined();
    await expect(checkPlan('leader', 'bulkMembers', plan)).resolves.toBeUndefined();
    await expect(checkPlan('creator', undefined, plan)).resolves.toBeUndefined();
    expect(asked).toBe(false);
    await expect(checkPlan('creator', 'courses', plan)).rejects.toMatchObject({ code: 'PLAN_REQUIRED', details: { requiredPlan: 'starter' } });
  });

  it("reads a creator's plan once for a burst of calls (one GetItem of its status and tier)", async () => {
    for (let i = 0; i < 5; i++) expect((await call(createCourse, asCreator('POST /api/courses'))).status).toBe(200);
    expect(subscriptionReads()).toBe(1);
    const [read] = dynamo.commandCalls(GetCommand).filter((c) => c.args[0].input.Key?.['sk'] === 'SUBSCRIPTION');
    expect(read!.args[0].input).toMatchObject({ ProjectionExpression: '#status, tier' });
  });
});

describe('remembering a plan', () => {
  it(`keeps a plan for ${ACCOUNT_CACHE_MS} ms, then reads it again (a new subscription is served within that window)`, async () => {
    let reads = 0;
    const read = async () => (++reads > 1 ? ('pro' as const) : ('none' as const));
    expect(await storedPlan('q1', read, 1_000)).toBe('none');
    expect(await storedPlan('q1', read, 1_000 + ACCOUNT_CACHE_MS - 1)).toBe('none');
    expect(await storedPlan('q1', read, 1_000 + ACCOUNT_CACHE_MS)).toBe('pro');
    expect(reads).toBe(2);
  });

  it('does not remember a read that failed', async () => {
    await expect(storedPlan('q2', () => Promise.reject(new Error('throttled')), 1_000)).rejects.toThrow('throttled');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await storedPlan('q2', async () => 'starter', 1_001)).toBe('starter');
  });
});

describe('declared headers', () => {
  const keyed = httpRoute({ route: 'use-credits', headers: idempotencyHeaders }, ({ headers }) => ({ key: headers['idempotency-key'] ?? null }));
  const creator = { routeKey: 'POST /api/credits/use', sub: 'u1', groups: ['creator'] };

  it('hands the use case the declared header, read case-insensitively', async () => {
    expect(await call(keyed, apiEvent({ ...creator, headers: { 'Idempotency-Key': 'retry-0001' } }))).toEqual({ status: 200, body: { key: 'retry-0001' } });
  });

  it('answers 400 VALIDATION_FAILED naming the header when it is malformed, before the use case runs', async () => {
    const res = await call(keyed, apiEvent({ ...creator, headers: { 'idempotency-key': 'bad key!' } }));
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [expect.objectContaining({ path: 'idempotency-key' })] });
  });
});

describe('reading cognito:groups', () => {
  it('reads the flattened string API Gateway writes and the raw array of a token', () => {
    expect(parseGroups('[admin creator]')).toEqual(['admin', 'creator']);
    expect(parseGroups(['learner'])).toEqual(['learner']);
    expect(parseGroups('creator')).toEqual(['creator']);
    expect(parseGroups(undefined)).toEqual([]);
  });
});

describe('a dependency failing (issue 16)', () => {
  const failing = (error: unknown) => httpRoute({ route: 'get-me' }, () => Promise.reject(error));
  const meEvent = () => apiEvent({ routeKey: ME, sub: 'u1', groups: ['creator'] });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After when the database or a service fails for a moment', async () => {
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException', $fault: 'client', $metadata: { httpStatusCode: 400 } });
    const server = Object.assign(new Error('Internal'), { name: 'InternalServerError', $fault: 'server', $metadata: { httpStatusCode: 500 } });
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    for (const error of [throttled, server, reset]) {
      const result = await failing(error)(meEvent(), lambdaContext);
      expect(parse(result)).toEqual({ status: 503, body: { error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String), details: { requestId: expect.any(String) } } } });
      expect(result.headers?.['retry-after']).toBe('2');
    }
  });

  it('still answers 500 INTERNAL, without Retry-After, for a bug of ours', async () => {
    const result = await failing(new TypeError('x is undefined'))(meEvent(), lambdaContext);
    expect(parse(result).status).toBe(500);
    expect(result.headers?.['retry-after']).toBeUndefined();
  });

  it('stops waiting just before the function would be cut off, and answers 503 rather than nothing', async () => {
    const hanging = httpRoute({ route: 'get-me' }, () => new Promise(() => undefined));
    const started = performance.now();
    const result = await hanging(meEvent(), { ...lambdaContext, getRemainingTimeInMillis: () => 800 });
    expect(performance.now() - started).toBeLessThan(800);
    expect(parse(result)).toMatchObject({ status: 503, body: { error: { code: 'SERVICE_UNAVAILABLE' } } });
  });
});
