import { beforeAll, describe, expect, it } from 'vitest';
import { API_RATE_LIMIT, type ApiScope } from '#contracts/api-keys.ts';
import { createApiKey } from '#core/api-keys/api-keys.ts';
import { apiKeyDeps } from '#functions/composition/deps-api-keys.ts';
import { isKeyAccess, routes } from '#functions/routes.ts';
import { mailsTo } from './mail-support.ts';
import { accountWithRole, api, outputs, uniqueEmail } from './support.ts';

/**
 * The public API at /v1 as an outside integration calls it (issue 31 points 2-3, decision 0052): an API key in the
 * Authorization header, through the local gateway's key authorizer (the same function API Gateway runs), the handlers'
 * per-call checks (scope, plan, revocation, rate limit) and the dashboard's use cases.
 */
type Creator = Awaited<ReturnType<typeof accountWithRole>>;

const makeKey = async (creator: Creator, scopes: ApiScope[]): Promise<{ id: string; key: string }> => {
  const made = await api('POST', '/api/api-keys', { token: creator.token, body: { name: `Key ${scopes.join(' ')}`, scopes } });
  expect(made.status).toBe(201);
  return { id: made.body.id as string, key: made.body.key as string };
};

/** A call with an API key; `raw` keeps the response (its headers). */
const call = (key: string | undefined, method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) =>
  fetch(`${outputs().ApiUrl}${path}`, {
    method,
    headers: { ...init.headers, ...(key ? { authorization: `Bearer ${key}` } : {}), ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  }).then(async (res) => {
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  });

let owner: Creator;
let full: string;
let courseId: string;

beforeAll(async () => {
  owner = await accountWithRole('creator', 'v1-owner');
  full = (await makeKey(owner, ['courses:read', 'enrollments:write', 'learners:read', 'sales:read'])).key;
  courseId = (await api('POST', '/api/courses', { token: owner.token, body: { title: 'Public API course', description: 'Reached from outside.' } })).body.id;
});

describe('the public API with a key', () => {
  it("reads the key's creator's courses, and another creator's course is 404", async () => {
    const list = await call(full, 'GET', '/v1/courses');
    expect(list.status).toBe(200);
    expect(list.body.items.map((c: { id: string }) => c.id)).toEqual([courseId]);
    expect(list.headers.get('cache-control')).toBe('no-store');
    const one = await call(full, 'GET', `/v1/courses/${courseId}`);
    expect(one.body).toMatchObject({ id: courseId, title: 'Public API course', lessons: [] });

    const other = await accountWithRole('creator', 'v1-other');
    const theirs = (await api('POST', '/api/courses', { token: other.token, body: { title: 'Not yours', description: 'x' } })).body.id;
    const refused = await call(full, 'GET', `/v1/courses/${theirs}`);
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('NOT_FOUND');
  });

  it('enrols a learner by email once per Idempotency-Key (invitation sent once), lists them as a learner, and removes them', async () => {
    const email = uniqueEmail('v1-learner');
    const headers = { 'idempotency-key': `enrol-${Date.now()}` };
    const first = await call(full, 'POST', `/v1/courses/${courseId}/enrollments`, { body: { email }, headers });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ email, invited: true });
    const again = await call(full, 'POST', `/v1/courses/${courseId}/enrollments`, { body: { email }, headers });
    expect(again).toMatchObject({ status: 201, body: first.body });
    const reused = await call(full, 'POST', `/v1/courses/${courseId}/enrollments`, { body: { email: uniqueEmail('v1-else') }, headers });
    expect(reused.status).toBe(409);
    expect(reused.body.error.message).toMatch(/Idempotency-Key/);
    // Without a key, the same enrolment is the dashboard's 409: it happened once.
    expect((await call(full, 'POST', `/v1/courses/${courseId}/enrollments`, { body: { email } })).status).toBe(409);

    const invitations = await mailsTo(email);
    expect(invitations).toHaveLength(1);
    expect(invitations[0]!.body.text ?? invitations[0]!.body.html).toContain('Public API course');

    const learners = await call(full, 'GET', '/v1/learners');
    expect(learners.status).toBe(200);
    expect(learners.body.items.map((l: { email: string }) => l.email)).toContain(email);
    expect(learners.body).toHaveProperty('nextCursor');
    const sales = await call(full, 'GET', '/v1/sales');
    expect(sales).toMatchObject({ status: 200, body: { items: [], nextCursor: null } });

    expect((await call(full, 'DELETE', `/v1/courses/${courseId}/enrollments/${encodeURIComponent(email)}`)).status).toBe(204);
    expect((await call(full, 'DELETE', `/v1/courses/${courseId}/enrollments/${encodeURIComponent(email)}`)).status).toBe(404);
    const listed = await api('GET', `/api/courses/${courseId}/enrollments`, { token: owner.token });
    expect(listed.body.items).toEqual([]);
  });

  it('refuses a bad body with 400 and the field, as the dashboard does', async () => {
    const res = await call(full, 'POST', `/v1/courses/${courseId}/enrollments`, { body: { email: 'not an email' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('email');
  });
});

describe('who may call the public API', () => {
  it('refuses no key, an unknown key and a Cognito token with 401', async () => {
    for (const key of [undefined, 'cp_unknownunknownunknownunknownunknownunknown00', owner.token]) {
      const res = await call(key, 'GET', '/v1/courses');
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHENTICATED');
    }
  });

  it('refuses a key without the scope with 403 FORBIDDEN naming it', async () => {
    const { key } = await makeKey(owner, ['sales:read']);
    const res = await call(key, 'GET', '/v1/courses');
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'FORBIDDEN' });
    expect(res.body.error.message).toContain('courses:read');
    expect((await call(key, 'GET', '/v1/sales')).status).toBe(200);
  });

  it('refuses a revoked key from its next call, even while the authorizer still holds its answer', async () => {
    const { id, key } = await makeKey(owner, ['courses:read']);
    expect((await call(key, 'GET', '/v1/courses')).status).toBe(200);
    expect((await api('DELETE', `/api/api-keys/${id}`, { token: owner.token })).status).toBe(204);
    const res = await call(key, 'GET', '/v1/courses');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHENTICATED');
  });

  it("refuses the key of a creator whose plan no longer includes API access with 403 PLAN_REQUIRED", async () => {
    // A creator on Starter holding a key from their Pro days (made by the use case: Starter cannot make one).
    const downgraded = await accountWithRole('creator', 'v1-starter', { plan: 'starter' });
    const made = await createApiKey(apiKeyDeps(), { creatorId: downgraded.id, body: { name: 'Old', scopes: ['courses:read'] } });
    const res = await call(made.key, 'GET', '/v1/courses');
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'PLAN_REQUIRED', details: { requiredPlan: 'pro' } });
  });

  it(`rate limits each key: a burst of ${API_RATE_LIMIT.burst} passes, then ${API_RATE_LIMIT.rate} a second; the rest get 429 with Retry-After`, async () => {
    const { key } = await makeKey(owner, ['courses:read']);
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 2 * API_RATE_LIMIT.burst }, () => call(key, 'GET', '/v1/courses')));
    // The bucket refills while the calls run: at most the burst plus what the elapsed time refilled.
    const refilled = Math.ceil(((performance.now() - started) / 1000) * API_RATE_LIMIT.rate);
    const limited = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(API_RATE_LIMIT.burst + refilled);
    expect(limited.length).toBe(answers.length - answers.filter((a) => a.status === 200).length);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]!.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another key of the same creator has its own bucket.
    expect((await call(full, 'GET', '/v1/courses')).status).toBe(200);
  });
});

describe('GET /v1/openapi.json', () => {
  it('is public, cached, OpenAPI 3.1, and describes every /v1 route', async () => {
    const res = await call(undefined, 'GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/public, max-age=\d+/);
    expect(res.body.openapi).toMatch(/^3\.1\.\d+$/);
    const described = Object.entries(res.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(described.sort()).toEqual(routes.filter((r) => isKeyAccess(r.access)).map((r) => `${r.method} ${r.path}`).sort());
  });
});
