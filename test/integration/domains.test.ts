import { asHost } from '#test/support/as-host.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { work as domainsCheck } from '#functions/jobs/domains-check.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { accountWithRole, api, outputs, useLocalCloudEnv } from './support.ts';

/**
 * Custom domains end to end (issue 32 points 2-4, decision 0055): the gateway, the handlers, DynamoDB Local, the DNS
 * stand-in (records set through `DnsControlUrl`, read by the verification through node:dns) and the storefront entry
 * (`StorefrontUrl`, routing by `Host`). The local edge issues at the first check after verification.
 */
type Account = Awaited<ReturnType<typeof accountWithRole>>;
let ann: Account;
let bob: Account;
let annSlug: string;
let annCourse: string;
let bobCourse: string;

const unique = (tag: string) => `${tag}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}.example.com`;
const setRecord = async (name: string, type: 'TXT' | 'CNAME' | 'A', value: string) => {
  const res = await fetch(`${outputs().DnsControlUrl}/records`, { method: 'PUT', body: JSON.stringify({ name, type, value }) });
  expect(res.status).toBe(204);
};
const clearRecords = async (name: string) => {
  expect((await fetch(`${outputs().DnsControlUrl}/records?name=${encodeURIComponent(name)}`, { method: 'DELETE' })).status).toBe(204);
};
/** The storefront entry as a browser at `https://<host>/<path>` reaches it. */
const storefront = (host: string, path = '/') => asHost(outputs().StorefrontUrl, host, path);
const publishedCourse = async (token: string, title: string): Promise<string> => {
  const created = await api('POST', '/api/courses', { token, body: { title, description: `All about ${title}.` } });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  expect((await api('POST', `/api/courses/${id}/lessons`, { token, body: { title: 'One', kind: 'text', body: '<p>x</p>' } })).status).toBe(201);
  expect((await api('PATCH', `/api/courses/${id}`, { token, body: { status: 'published' } })).status).toBe(200);
  return id;
};
/** Adds the hostname, sets both records as the answer says, and verifies it until active. */
const activate = async (token: string, hostname: string) => {
  const added = await api('POST', '/api/domains', { token, body: { hostname } });
  expect(added.status).toBe(201);
  await setRecord(added.body.verification.name, 'TXT', added.body.verification.value);
  await setRecord(hostname, 'CNAME', added.body.target.value);
  expect((await api('POST', `/api/domains/${hostname}/verify`, { token })).body.status).toBe('issuing_certificate');
  expect((await api('POST', `/api/domains/${hostname}/verify`, { token })).body.status).toBe('active');
};

beforeAll(async () => {
  ann = await accountWithRole('creator', 'domains-ann');
  bob = await accountWithRole('creator', 'domains-bob');
  annSlug = `ann-${Date.now().toString(36)}`;
  expect((await api('PUT', '/api/creator/public-profile', { token: ann.token, body: { displayName: 'Ann’s Bakery School', slug: annSlug } })).status).toBe(200);
  expect((await api('PUT', '/api/creator/public-profile', { token: bob.token, body: { displayName: 'Bob', slug: `bob-${Date.now().toString(36)}` } })).status).toBe(200);
  annCourse = await publishedCourse(ann.token, 'Sourdough');
  bobCourse = await publishedCourse(bob.token, 'Bob’s course');
}, 60_000);

describe('custom domains', () => {
  it('go pending -> issuing -> active once the TXT and CNAME resolve, and the storefront then answers on the host with the creator’s page only', async () => {
    const hostname = unique('learn');
    const added = await api('POST', '/api/domains', { token: ann.token, body: { hostname: hostname.toUpperCase() } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      hostname,
      status: 'pending_verification',
      verification: { type: 'TXT', name: `_courseplatform-challenge.${hostname}`, value: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/) },
      target: { type: 'CNAME', value: expect.any(String) },
    });
    // Before anything resolves the storefront does not know the host.
    expect((await storefront(hostname)).status).toBe(404);

    const pending = await api('POST', `/api/domains/${hostname}/verify`, { token: ann.token });
    expect(pending).toMatchObject({ status: 200, body: { status: 'pending_verification', problem: expect.stringContaining('No TXT record') } });
    await setRecord(added.body.verification.name, 'TXT', added.body.verification.value);
    expect((await api('POST', `/api/domains/${hostname}/verify`, { token: ann.token })).body).toMatchObject({ status: 'pending_verification', problem: expect.stringContaining('No CNAME record') });
    await setRecord(hostname, 'CNAME', added.body.target.value);
    expect((await api('POST', `/api/domains/${hostname}/verify`, { token: ann.token })).body.status).toBe('issuing_certificate');
    expect((await storefront(hostname)).status).toBe(404);
    const active = await api('POST', `/api/domains/${hostname}/verify`, { token: ann.token });
    expect(active.body).toMatchObject({ status: 'active', activatedAt: expect.any(String), flaggedAt: null });
    expect((await api('GET', '/api/domains', { token: ann.token })).body.items).toEqual([expect.objectContaining({ hostname, status: 'active' })]);
    expect((await api('GET', `/api/public/domains/${hostname}`)).body).toEqual({ hostname, creatorSlug: annSlug });

    const home = await storefront(hostname);
    expect(home.status).toBe(200);
    expect(home.text).toContain('Ann’s Bakery School');
    expect(home.text).toContain(`data-storefront="${annSlug}"`);
    expect(await storefront(`${hostname}:443`, `/c/${annCourse}`)).toMatchObject({ status: 200, text: expect.stringContaining('Sourdough') });
    // Another creator's course, a dashboard, the API beyond the public routes: not on this domain.
    expect((await storefront(hostname, `/c/${bobCourse}`)).status).toBe(404);
    expect((await storefront(hostname, '/dashboard')).status).toBe(404);
    expect((await storefront(hostname, '/verify/no-such-certificate')).status).toBe(404);
    expect((await storefront(unique('unknown'))).status).toBe(404);
  });

  it('are claimed by one creator only (409), never the platform’s own addresses (400), and are Pro (Starter: 403 PLAN_REQUIRED)', async () => {
    const hostname = unique('taken');
    expect((await api('POST', '/api/domains', { token: ann.token, body: { hostname } })).status).toBe(201);
    const taken = await api('POST', '/api/domains', { token: bob.token, body: { hostname } });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'CONFLICT', message: 'That hostname is already claimed by another account.' });
    expect((await api('POST', `/api/domains/${hostname}/verify`, { token: bob.token })).status).toBe(404);
    expect((await api('DELETE', `/api/domains/${hostname}`, { token: bob.token })).status).toBe(404);

    const app = new URL(outputs().WebUrl).hostname;
    for (const own of [app, `school.${app}`, 'localhost', '127.0.0.1', 'shop.storefront.course-platform.localhost']) {
      const refused = await api('POST', '/api/domains', { token: bob.token, body: { hostname: own } });
      expect(refused.status, own).toBe(400);
      expect(refused.body.error.code).toBe('VALIDATION_FAILED');
    }

    const starter = await accountWithRole('creator', 'domains-starter', { plan: 'starter' });
    const refused = await api('POST', '/api/domains', { token: starter.token, body: { hostname: unique('starter') } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: 'PLAN_REQUIRED', details: { requiredPlan: 'pro' } });
    expect((await api('GET', '/api/domains', { token: starter.token })).body).toEqual({ items: [] });
  });

  it('are flagged by the periodic check when their CNAME no longer points at the platform', async () => {
    const hostname = unique('flag');
    await activate(ann.token, hostname);
    await clearRecords(hostname);
    await setRecord(hostname, 'CNAME', 'elsewhere.example.net');
    useLocalCloudEnv();
    // The check as the job runs it, six hours on (an active domain is looked at every 6 hours).
    const later = new Date(Date.now() + 6 * 3600_000 + 60_000);
    await runToEnd('domains-check', (remaining) => domainsCheck(remaining, { clock: { now: () => later } }));
    const flagged = (await api('GET', '/api/domains', { token: ann.token })).body.items.find((d: { hostname: string }) => d.hostname === hostname);
    expect(flagged).toMatchObject({ status: 'active', flaggedAt: expect.any(String), flagReason: expect.stringContaining('no longer points at') });
  });

  it('come down when removed: the storefront 404s on the host at once', async () => {
    const hostname = unique('gone');
    await activate(ann.token, hostname);
    expect((await storefront(hostname)).status).toBe(200);
    expect((await api('DELETE', `/api/domains/${hostname}`, { token: ann.token })).status).toBe(204);
    expect((await storefront(hostname)).status).toBe(404);
    expect((await api('GET', `/api/public/domains/${hostname}`)).status).toBe(404);
    expect((await api('GET', '/api/domains', { token: ann.token })).body.items.map((d: { hostname: string }) => d.hostname)).not.toContain(hostname);
    // Freed: another creator may claim it now.
    expect((await api('POST', '/api/domains', { token: bob.token, body: { hostname } })).status).toBe(201);
  });
});
