import { beforeAll, describe, expect, it } from 'vitest';
import { STOREFRONT_CACHE } from '#functions/routes.ts';
import { deliver, linkCustomer, subscriptionEvent } from './billing-support.ts';
import { accountWithRole, api, outputs, uniqueEmail } from './support.ts';

/**
 * Issue 27 point 8 through the local gateway (decision 0028): views and clicks count once per visitor a day, and the
 * cacheable public GETs say so. (The origin header itself: test/functions/middleware/origin.test.ts and the landing
 * tests; the gateway here runs without LOCAL_EDGE_ONLY, as every integration test calls it directly.)
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
