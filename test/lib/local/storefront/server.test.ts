import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAsset, startStorefrontServer, type StorefrontServer } from '#lib/local/storefront/server.ts';
import { asHost } from '#test/support/as-host.ts';

/**
 * The local storefront entry (decision 0055) against a stand-in API: one active domain (learn.example.com, Ann's), Ann's
 * course, bundle and certificate, Bob's course, bundle and certificate.
 */
const answers: Record<string, unknown> = {
  '/api/public/domains/learn.example.com': { hostname: 'learn.example.com', creatorSlug: 'ann' },
  '/api/public/creators/ann': { slug: 'ann', displayName: 'Ann’s School', bio: '', avatarUrl: null, courses: [] },
  '/api/public/courses/c-ann': { id: 'c-ann', title: 'Sourdough', creatorSlug: 'ann' },
  '/api/public/courses/c-bob': { id: 'c-bob', title: 'Bob’s course', creatorSlug: 'bob' },
  '/api/public/bundles/b-ann': { id: 'b-ann', title: 'Bread and pastry', creatorSlug: 'ann' },
  '/api/public/bundles/b-bob': { id: 'b-bob', title: 'Bob’s bundle', creatorSlug: 'bob' },
  '/api/public/certificates/cert-ann': { certificate: { courseUrl: 'http://localhost:5173/c/c-ann', courseTitle: 'Sourdough' } },
  '/api/public/certificates/cert-bob': { certificate: { courseUrl: 'http://localhost:5173/c/c-bob', courseTitle: 'Bob’s course' } },
};
let api: Server;
let storefront: StorefrontServer;
beforeAll(async () => {
  api = createServer((req, res) => {
    const body = answers[req.url ?? ''];
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { error: { code: 'NOT_FOUND' } }));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  storefront = await startStorefrontServer({ port: 0, apiUrl: `http://127.0.0.1:${(api.address() as AddressInfo).port}` });
});
afterAll(async () => {
  await storefront.stop();
  await new Promise((resolve) => api.close(resolve));
});

const get = (host: string, path: string, method = 'GET') => asHost(storefront.url, host, path, method);

describe('the storefront entry', () => {
  it("serves an active domain's creator page, their course, their bundle and their certificate, naming the creator", async () => {
    const home = await get('Learn.Example.com:443', '/');
    expect(home.status).toBe(200);
    expect(home.text).toContain('data-storefront="ann"');
    expect(home.text).toContain('Ann’s School');
    expect(await get('learn.example.com', '/c/c-ann')).toMatchObject({ status: 200, text: expect.stringContaining('Sourdough') });
    expect(await get('learn.example.com', '/b/b-ann')).toMatchObject({ status: 200, text: expect.stringContaining('Bread and pastry') });
    expect(await get('learn.example.com', '/verify/cert-ann')).toMatchObject({ status: 200, text: expect.stringContaining('Certificate: Sourdough') });
  });

  it("answers 404 for another creator's course, bundle or certificate, any other path or method, and any other host", async () => {
    for (const path of ['/c/c-bob', '/b/b-bob', '/b/none', '/verify/cert-bob', '/verify/none', '/dashboard', '/api/courses', '/u/ann']) {
      expect((await get('learn.example.com', path)).status, path).toBe(404);
    }
    expect((await get('learn.example.com', '/', 'POST')).status).toBe(404);
    expect((await get('other.example.com', '/')).status).toBe(404);
  });

  it("passes only the SPA's files to the web dev server, never a page it would answer with index.html", () => {
    for (const path of ['/@vite/client', '/src/main.tsx', '/node_modules/.vite/deps/react.js', '/assets/index-abc.js', '/config.json', '/favicon.svg']) expect(isAsset(path), path).toBe(true);
    for (const path of ['/dashboard', '/dashboard/creator', '/sign-in', '/u/ann', '/developers/api']) expect(isAsset(path), path).toBe(false);
  });

  it("serves the SPA's index.html as it is when the web app runs (the SPA finds its creator), with a 404 for a path the domain does not serve", async () => {
    const index = '<!DOCTYPE html><html><head><script type="module" src="/src/main.tsx"></script></head><body><div id="root"></div></body></html>';
    // The built app's / is landing.html, the platform's marketing page prerendered: never a creator's storefront.
    const landing = '<!DOCTYPE html><html><head></head><body><div id="root" data-prerendered>Course Platform</div></body></html>';
    const seen: string[] = [];
    const web = createServer((req, res) => {
      seen.push(`${req.headers.host ?? ''} ${req.url ?? ''}`);
      const html = req.url === '/index.html' ? index : req.url === '/' ? landing : undefined;
      res.writeHead(200, { 'content-type': html ? 'text/html' : 'application/json' });
      res.end(html ?? JSON.stringify({ url: req.url }));
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    const webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
    const withSpa = await startStorefrontServer({ port: 0, apiUrl: `http://127.0.0.1:${(api.address() as AddressInfo).port}`, webUrl });
    const at = (host: string, path: string) => asHost(withSpa.url, host, path);
    try {
      for (const path of ['/', '/c/c-ann', '/verify/cert-ann']) expect(await at('learn.example.com', path), path).toEqual({ status: 200, text: index });
      for (const path of ['/c/c-bob', '/dashboard', '/u/ann']) expect(await at('learn.example.com', path), path).toEqual({ status: 404, text: index });
      // The SPA's files and its public reads go to the dev server (its proxy is the local app distribution), with its own Host.
      expect((await at('learn.example.com', '/config.json')).status).toBe(200);
      expect((await at('learn.example.com', '/api/public/domains/learn.example.com')).status).toBe(200);
      expect(seen.filter((line) => !line.endsWith(' /index.html'))).toEqual([`${new URL(webUrl).host} /config.json`, `${new URL(webUrl).host} /api/public/domains/learn.example.com`]);
      // A host with no active domain never reaches the SPA.
      expect((await at('other.example.com', '/')).text).toContain('Page not found');
    } finally {
      await withSpa.stop();
      await new Promise((resolve) => web.close(resolve));
    }
  });
});
