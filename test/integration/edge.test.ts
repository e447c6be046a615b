import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '#functions/config.ts';
import { STOREFRONT_CACHE } from '#functions/routes.ts';
import { startGateway } from '#lib/local/gateway/http-api.ts';
import { startPagesServer } from '#lib/local/pages/server.ts';
import { ORIGIN_HEADER } from '#middleware/origin.ts';
import { deliver, linkCustomer, subscriptionEvent } from './billing-support.ts';
import { accountWithRole, api, outputs, uniqueEmail, useLocalCloudEnv } from './support.ts';

/**
 * Issue 27 point 8 through the local gateway (decision 0028): views and clicks count once per visitor a day, the
 * cacheable public GETs say so, and a gateway that checks the app's origin header (LOCAL_EDGE_ONLY=1) answers only
 * through the edge. The shared local cloud runs without it, as every integration test calls its gateway directly.
 */
type Account = Awaited<ReturnType<typeof accountWithRole>>;
let creator: Account;
let courseId: string;

const funnelViews = async () => (await api('GET', '/api/creator/analytics?days=30', { token: creator.token })).body.funnel.views as number;

/** A visitor as the edge sees them: an address and a browser. */
const visitor = (ip: string, userAgent = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0') => ({ 'x-forwarded-for': ip, 'user-agent': userAgent });

beforeAll(async () => {
  creator = await accountWithRole('creator', 'edge-views');
  courseId = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Counted once' } })).body.id as string;
  await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'One', kind: 'text', body: '<p>One.</p>' } });
  expect((await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published', priceAmount: 1000 } })).status).toBe(200);
});

describe("a course page's views", () => {
  it('count once per visitor: 20 from one visitor count 1, then a second visitor makes 2; reading the page counts nothing', async () => {
    for (let i = 0; i < 20; i++) expect((await api('GET', `/api/public/courses/${courseId}`, { headers: visitor('203.0.113.10') })).status).toBe(200);
    expect(await funnelViews()).toBe(0);

    for (let i = 0; i < 20; i++) expect((await api('POST', `/api/public/courses/${courseId}/views`, { headers: visitor('203.0.113.10') })).status).toBe(204);
    expect(await funnelViews()).toBe(1);

    await api('POST', `/api/public/courses/${courseId}/views`, { headers: visitor('203.0.113.11') });
    await api('POST', `/api/public/courses/${courseId}/views`, { headers: visitor('203.0.113.11') });
    expect(await funnelViews()).toBe(2);
  });

  it('is 404 for a course that is not published', async () => {
    const res = await api('POST', '/api/public/courses/no-such-course/views', { headers: visitor('203.0.113.12') });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});

describe("an affiliate link's clicks", () => {
  it('count once per visitor: 20 follows from one visitor count 1, a second visitor 2; every follow still leaves its ref', async () => {
    const customer = await linkCustomer(creator.id);
    const now = Math.floor(Date.now() / 1000);
    expect((await deliver(subscriptionEvent({ type: 'customer.subscription.created', created: now, customer, subscription: `sub_edge_${creator.id}`, status: 'active', price: 'price_pro_monthly' }))).status).toBe(200);
    const made = await api('POST', '/api/affiliates', { token: creator.token, body: { email: uniqueEmail('edge-aff'), name: 'Edge', commissionPercent: 10, holdDays: 0 } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const code = made.body.code as string;
    const clicks = async () => ((await api('GET', '/api/affiliates', { token: creator.token })).body.items as { code: string; clicks: number }[]).find((a) => a.code === code)!.clicks;

    const refs = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`${outputs().ApiUrl}/api/public/r/${code}?to=/`, { redirect: 'manual', headers: visitor('203.0.113.20') });
      expect(res.status).toBe(302);
      refs.add(/^ref=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')![1]!);
    }
    expect(await clicks()).toBe(1);
    expect(refs.size).toBe(20);

    await fetch(`${outputs().ApiUrl}/api/public/r/${code}?to=/`, { redirect: 'manual', headers: visitor('203.0.113.21') });
    expect(await clicks()).toBe(2);
  });
});

describe('the cacheable public GETs', () => {
  it('carry Cache-Control on 200 (course and creator pages), and no-store on an error', async () => {
    const page = await fetch(`${outputs().ApiUrl}/api/public/courses/${courseId}`);
    expect(page.headers.get('cache-control')).toBe(STOREFRONT_CACHE);
    const missing = await fetch(`${outputs().ApiUrl}/api/public/courses/nope`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBe('no-store');
    const issuer = await fetch(`${outputs().ApiUrl}/api/public/issuer`);
    expect(issuer.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
  });
});

describe('a local cloud started with LOCAL_EDGE_ONLY=1 (its gateway and pages origin, here in this process)', () => {
  const app = 'app-origin-value';
  const pagesValue = 'pages-origin-value';
  let gateway: Awaited<ReturnType<typeof startGateway>>;
  let pages: Awaited<ReturnType<typeof startPagesServer>>;
  let slug: string;

  beforeAll(async () => {
    // A page published through the shared local cloud, read back through an edge-only gateway on the same table.
    const owner = await accountWithRole('creator', 'edge-page');
    slug = `edge-only-${Date.now()}`;
    const content = '<!DOCTYPE html><html><head><title>Edge</title></head><body><h1>Edge only</h1></body></html>';
    expect((await api('PUT', '/api/landing-page', { token: owner.token, body: { content, settings: { companyName: 'Edge', businessType: 'education', colorTheme: 'fresh', missionStatement: 'Edge.', problemSolved: 'Edge.' } } })).status).toBe(200);
    expect((await api('PUT', '/api/landing-page/publication', { token: owner.token, body: { slug } })).status).toBe(200);
    useLocalCloudEnv();
    Object.assign(process.env, { ORIGIN_SECRET: app, PAGES_ORIGIN_SECRET: pagesValue });
    resetConfig();
    gateway = await startGateway({
      port: 0,
      cognitoEndpoint: outputs().CognitoEndpoint,
      userPoolId: outputs().UserPoolId,
      clientId: outputs().UserPoolClientId,
      throttle: false,
      log: () => {},
    });
    pages = await startPagesServer({ port: 0, apiUrl: gateway.url, originSecret: pagesValue });
  });

  afterAll(async () => {
    await pages?.stop();
    await gateway?.stop();
    delete process.env['ORIGIN_SECRET'];
    delete process.env['PAGES_ORIGIN_SECRET'];
    resetConfig();
  });

  it("refuses a direct call 403 and answers the web app's proxy (its header); the page only through the pages origin", async () => {
    const direct = await api('GET', '/api/health', { apiUrl: gateway.url });
    expect(direct.status).toBe(403);
    expect(direct.body.error.code).toBe('FORBIDDEN');
    expect((await api('GET', '/api/health', { apiUrl: gateway.url, headers: { [ORIGIN_HEADER]: app } })).status).toBe(200);

    const page = await fetch(`${pages.url}/p/${slug}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Edge only');
    for (const headers of [{}, { [ORIGIN_HEADER]: app }] as Record<string, string>[]) {
      expect((await api('GET', `/api/public/pages/${slug}`, { apiUrl: gateway.url, headers })).status).toBe(404);
    }
  });
});
