import { beforeAll, describe, expect, it } from 'vitest';
import { FORBIDDEN_HTML } from '#adapters/html-sanitizer.ts';
import type { LandingSettings } from '#contracts/landing.ts';
import { dynamoCredits } from '#data/credits.ts';
import { dynamoLandingPages } from '#data/landing-pages.ts';
import { hostileLandingPage, xssPayloads } from '#test/support/xss-corpus.ts';
import { giveCredits } from './billing-support.ts';
import { accountWithRole, api, outputs, useLocalCloudEnv } from './support.ts';

/** The landing-page generator end to end: the gateway, the handlers, DynamoDB Local and the Bedrock stand-in. */
const settings: LandingSettings = {
  companyName: 'Acme Academy',
  businessType: 'education',
  colorTheme: 'fresh',
  missionStatement: 'Teach everyone to cook.',
  problemSolved: 'Recipes are confusing.',
};

const CSP =
  "sandbox allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation; default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; font-src https: data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** POST generate; a 429 of the route's tight throttle (5/s) is waited out, as the web app's user would. */
const generate = async (token: string, body: unknown = settings, key?: string) => {
  for (;;) {
    const res = await api('POST', '/api/landing-pages/generate', { token, body, ...(key ? { headers: { 'idempotency-key': key } } : {}) });
    if (res.status !== 429) return res;
    await sleep(300);
  }
};

const stand = (path: string, init?: RequestInit) => fetch(`${outputs().BedrockEndpoint}${path}`, init).then((res) => res.json() as Promise<Record<string, unknown>>);
/** The Converse calls the Bedrock stand-in received (its last 100). */
const modelCalls = async () => (await stand('/_stand-in/calls'))['calls'] as unknown[];
const failNext = (body: { count: number; status?: number }) =>
  stand('/_stand-in/fail-next', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The public page as a browser gets it: on the pages origin, the only way to it (decision 0028). */
const publicPage = async (slug: string) => {
  const res = await fetch(`${outputs().PagesUrl}/p/${slug}`);
  return { status: res.status, headers: res.headers, html: await res.text() };
};

const ledger = async (userId: string) => {
  useLocalCloudEnv();
  return (await dynamoCredits().ledger(userId)).filter((row) => row.actionType !== 'test_grant');
};
const balance = async (token: string) => (await api('GET', '/api/me/credits', { token })).body.creditsRemaining as number;

const creatorWithCredits = async (tag: string, credits: number) => {
  const creator = await accountWithRole('creator', tag);
  await giveCredits(creator.id, credits);
  return creator;
};

let n = 0;
const slugFor = (tag: string) => `${tag}-${Date.now().toString(36)}-${++n}`;

describe('generating a landing page', () => {
  it('charges 15 credits: the page shows the company name, the ledger shows landing_page_generation -15', async () => {
    const creator = await creatorWithCredits('gen', 100);
    const res = await generate(creator.token);
    expect(res.status).toBe(200);
    expect(res.body.creditsRemaining).toBe(85);
    expect(res.body.html).toMatch(/^<!DOCTYPE html>/);
    expect(res.body.html).toContain('Acme Academy');
    expect(res.body.html).not.toMatch(FORBIDDEN_HTML);
    expect((await ledger(creator.id)).map((row) => [row.actionType, row.credits])).toEqual([['landing_page_generation', -15]]);
    expect(await balance(creator.token)).toBe(85);
  });

  it('a model failure is 502 with exactly one refund, and the balance is unchanged', async () => {
    const creator = await creatorWithCredits('gen-fail', 100);
    await failNext({ count: 1, status: 424 });
    const res = await generate(creator.token);
    expect(res.status).toBe(502);
    expect(res.body.error).toEqual({ code: 'UPSTREAM_FAILED', message: 'There was an error generating your landing page.' });
    expect((await ledger(creator.id)).map((row) => [row.actionType, row.credits])).toEqual([
      ['landing_page_generation', -15],
      ['landing_page_refund', 15],
    ]);
    expect(await balance(creator.token)).toBe(100);
  });

  it('a model outage outlasting the one retry is 502 with one refund; the next generation works', async () => {
    const creator = await creatorWithCredits('gen-outage', 100);
    const before = (await modelCalls()).length;
    await failNext({ count: 2, status: 500 });
    expect((await generate(creator.token)).status).toBe(502);
    expect((await modelCalls()).length - before).toBe(2);
    expect(await balance(creator.token)).toBe(100);
    expect((await generate(creator.token)).status).toBe(200);
    expect((await ledger(creator.id)).filter((row) => row.actionType === 'landing_page_refund')).toHaveLength(1);
  });

  it('two concurrent generations (a double click): one is charged and answered, the other is 409 and charges nothing', async () => {
    const creator = await creatorWithCredits('gen-double', 100);
    const results = await Promise.all([generate(creator.token), generate(creator.token)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.error.message).toBe('A landing page is already being generated. Wait for it to finish.');
    expect(await ledger(creator.id)).toHaveLength(1);
    expect(await balance(creator.token)).toBe(85);
  });

  it('while a generation holds the slot, another request is 409: nothing charged, no model call', async () => {
    const creator = await creatorWithCredits('gen-held', 100);
    useLocalCloudEnv();
    const now = Math.floor(Date.now() / 1000);
    await dynamoLandingPages().acquireGenerationLock({ userId: creator.id, holder: 'in-flight', now, expiresAt: now + 90 });
    const calls = JSON.stringify(await modelCalls());
    expect((await generate(creator.token)).status).toBe(409);
    expect(JSON.stringify(await modelCalls())).toBe(calls);
    expect(await ledger(creator.id)).toEqual([]);
  });

  it("insufficient credits -> 402 with the spec's words, and the model is never called", async () => {
    const creator = await creatorWithCredits('gen-poor', 10);
    const calls = JSON.stringify(await modelCalls());
    const res = await generate(creator.token);
    expect(res.status).toBe(402);
    expect(res.body.error).toEqual({ code: 'INSUFFICIENT_CREDITS', message: 'You need 15 AI credits to generate a landing page. Please top up your credits.' });
    expect(JSON.stringify(await modelCalls())).toBe(calls);
    expect(await balance(creator.token)).toBe(10);
  });

  it('the same Idempotency-Key twice -> one charge, the same html', async () => {
    const creator = await creatorWithCredits('gen-idem', 100);
    const first = await generate(creator.token, settings, 'landing-key-0001');
    const again = await generate(creator.token, settings, 'landing-key-0001');
    expect(again).toEqual(first);
    expect(await ledger(creator.id)).toHaveLength(1);
    expect((await generate(creator.token, { ...settings, companyName: 'Other' }, 'landing-key-0001')).status).toBe(409);
  });

  it('refuses unknown fields and values outside the form (400), charging nothing', async () => {
    const creator = await creatorWithCredits('gen-strict', 100);
    for (const body of [{ ...settings, html: '<script>' }, { ...settings, colorTheme: 'neon' }, { ...settings, companyName: '' }]) {
      expect((await generate(creator.token, body)).status).toBe(400);
    }
    expect(await ledger(creator.id)).toEqual([]);
  });
});

describe('saving and publishing', () => {
  let token: string;
  beforeAll(async () => {
    token = (await accountWithRole('creator', 'landing-save')).token;
  });

  const save = (content: string, as = token) => api('PUT', '/api/landing-page', { token: as, body: { content, settings } });
  const publish = (slug: string, as = token) => api('PUT', '/api/landing-page/publication', { token: as, body: { slug } });
  const page = (heading: string) => `<!DOCTYPE html><html><head><style>h1 { color: #047857; }</style></head><body><h1>${heading}</h1></body></html>`;

  it('GET before the first save is null; a save comes back the same, styled, with its settings', async () => {
    const fresh = (await accountWithRole('creator', 'landing-fresh')).token;
    expect(await api('GET', '/api/landing-page', { token: fresh })).toEqual({ status: 200, body: null });
    const saved = await save(page('Round trip'), fresh);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ settings, publication: null });
    expect(saved.body.content).toContain('<h1>Round trip</h1>');
    expect(saved.body.content).toContain('color: #047857');
    expect(await api('GET', '/api/landing-page', { token: fresh })).toEqual({ status: 200, body: saved.body });
  });

  it('publishing serves the page at <PagesUrl>/p/{slug}: 200 text/html under the strict CSP', async () => {
    await save(page('Published page'));
    const slug = slugFor('acme');
    const res = await publish(slug);
    expect(res.status).toBe(200);
    expect(res.body.publication).toMatchObject({ slug, path: `/p/${slug}` });
    const served = await publicPage(slug);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(served.headers.get('content-security-policy')).toBe(CSP);
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('referrer-policy')).toBe('no-referrer');
    expect(served.headers.get('cache-control')).toBe('public, max-age=60');
    expect(served.html).toContain('<h1>Published page</h1>');
  });

  it("serves a published page only on the pages origin: the app's /api/public/pages/<slug> is 404, with or without a forged header", async () => {
    await save(page('Only on pages'));
    const slug = slugFor('pages-only');
    expect((await publish(slug)).status).toBe(200);
    expect((await publicPage(slug)).status).toBe(200);
    for (const headers of [{}, { 'x-origin-verify': 'guessed' }] as Record<string, string>[]) {
      const direct = await fetch(`${outputs().ApiUrl}/api/public/pages/${slug}`, { headers });
      expect(direct.status).toBe(404);
      expect(await direct.text()).not.toContain('Only on pages');
    }
  });

  it("another creator's slug -> 409", async () => {
    const slug = slugFor('mine');
    await save(page('Mine'));
    expect((await publish(slug)).status).toBe(200);
    const other = (await accountWithRole('creator', 'landing-other')).token;
    await save(page('Theirs'), other);
    const res = await publish(slug, other);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
    expect((await publicPage(slug)).html).toContain('Mine');
  });

  it('publishing before saving is 404', async () => {
    const fresh = (await accountWithRole('creator', 'landing-unsaved')).token;
    expect((await publish(slugFor('nothing'), fresh)).status).toBe(404);
  });

  it('unpublish -> the public page is 404 "Page not found" (HTML, same headers), and the slug is free again', async () => {
    await save(page('Soon gone'));
    const slug = slugFor('gone');
    await publish(slug);
    const res = await api('DELETE', '/api/landing-page/publication', { token });
    expect(res.status).toBe(200);
    expect(res.body.publication).toBeNull();
    const served = await publicPage(slug);
    expect(served.status).toBe(404);
    expect(served.html).toContain('Page not found');
    expect(served.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(served.headers.get('content-security-policy')).toBe(CSP);
    expect((await api('DELETE', '/api/landing-page/publication', { token })).status).toBe(200);
    const other = (await accountWithRole('creator', 'landing-taker')).token;
    await save(page('Taken over'), other);
    expect((await publish(slug, other)).status).toBe(200);
  });

  it('a 520 KiB body -> 413', async () => {
    const res = await save(`<p>${'x'.repeat(520 * 1024)}</p>`);
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('an impossible slug is 400 on publish and 404 on the public route', async () => {
    expect((await publish('Not A Slug')).status).toBe(400);
    expect((await publicPage('..%2F..%2Fetc')).status).toBe(404);
  });
});

describe('no script in any page the platform serves (the XSS corpus)', () => {
  it('each payload in every free-text field of a generation: the generated html matches nothing forbidden', async () => {
    const creator = await creatorWithCredits('xss-gen', 15 * (xssPayloads.length + 5));
    for (const payload of xssPayloads) {
      const res = await generate(creator.token, { ...settings, companyName: `Acme ${payload}`.slice(0, 120), missionStatement: payload, problemSolved: payload });
      expect(res.status, payload).toBe(200);
      expect(res.body.html, payload).not.toMatch(FORBIDDEN_HTML);
    }
  });

  it('each payload in saved content, in the settings, and in the published page: nothing forbidden', async () => {
    const { token } = await accountWithRole('creator', 'xss-save');
    const slug = slugFor('xss');
    for (const payload of [...xssPayloads, hostileLandingPage]) {
      const content = payload === hostileLandingPage ? payload : `<!DOCTYPE html><html><body><h1>Acme</h1>${payload}<p>${payload}</p></body></html>`;
      const saved = await api('PUT', '/api/landing-page', { token, body: { content, settings: { ...settings, missionStatement: payload.slice(0, 2000) } } });
      expect(saved.status, payload).toBe(200);
      expect(saved.body.content, payload).not.toMatch(FORBIDDEN_HTML);
      expect((await api('GET', '/api/landing-page', { token })).body.content, payload).not.toMatch(FORBIDDEN_HTML);
      expect((await api('PUT', '/api/landing-page/publication', { token, body: { slug } })).status, payload).toBe(200);
      const served = await publicPage(slug);
      expect(served.status, payload).toBe(200);
      expect(served.html, payload).not.toMatch(FORBIDDEN_HTML);
    }
  });
});
