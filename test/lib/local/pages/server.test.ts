import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PUBLIC_PAGE_CSP } from '#contracts/landing.ts';
import { closeServer } from '#lib/local/http-server.ts';
import { PortInUseError } from '#lib/local/ports.ts';
import { startPagesServer, type PagesServer } from '#lib/local/pages/server.ts';

/** A stand-in for the local gateway's public page route: it records what reached it and answers like the handler. */
let gateway: Server;
let gatewayUrl: string;
let received: { method?: string; url?: string; headers: IncomingHttpHeaders }[] = [];
let pages: PagesServer;

const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': PUBLIC_PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'public, max-age=60',
};

beforeAll(async () => {
  gateway = createServer((req, res) => {
    received.push({ method: req.method, url: req.url, headers: req.headers });
    if (req.url === '/api/public/pages/acme-academy') {
      res.writeHead(200, { ...pageHeaders, 'set-cookie': 'tracker=1; Path=/' });
      res.end('<!DOCTYPE html><html><body><h1>Acme Academy</h1></body></html>');
    } else {
      res.writeHead(404, pageHeaders);
      res.end('<!DOCTYPE html><html><body><h1>Page not found</h1></body></html>');
    }
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  pages = await startPagesServer({ port: 0, apiUrl: gatewayUrl, originSecret: 'pages-secret' });
});

afterAll(async () => {
  await pages?.stop();
  await closeServer(gateway);
});

beforeEach(() => {
  received = [];
});

describe('the local pages origin', () => {
  it('serves /p/<slug> from the API route of the public page, with its status, body and headers', async () => {
    const res = await fetch(`${pages.url}/p/acme-academy`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<h1>Acme Academy</h1>');
    for (const [name, value] of Object.entries(pageHeaders)) expect(res.headers.get(name), name).toBe(value);
    expect(received).toEqual([expect.objectContaining({ method: 'GET', url: '/api/public/pages/acme-academy' })]);
  });

  it("passes the API's own 404 for an unknown slug through", async () => {
    const res = await fetch(`${pages.url}/p/nobody-here`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('Page not found');
    expect(res.headers.get('content-security-policy')).toBe(PUBLIC_PAGE_CSP);
    expect(received.map((r) => r.url)).toEqual(['/api/public/pages/nobody-here']);
  });

  it('forwards no cookie, no Authorization header and no query string, and sends no cookie back', async () => {
    const res = await fetch(`${pages.url}/p/acme-academy?utm_source=mail&token=abc`, {
      headers: { cookie: 'session=secret', authorization: 'Bearer abc.def.ghi' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toBeNull();
    const [request] = received;
    expect(request!.url).toBe('/api/public/pages/acme-academy');
    expect(request!.headers.cookie).toBeUndefined();
    expect(request!.headers.authorization).toBeUndefined();
  });

  it("adds the pages origin's header, as the pages distribution does, whatever the viewer sent in it", async () => {
    await fetch(`${pages.url}/p/acme-academy`, { headers: { 'x-origin-verify': 'forged' } });
    expect(received[0]!.headers['x-origin-verify']).toBe('pages-secret');
  });

  it('answers HEAD with the headers of the page and no body', async () => {
    const res = await fetch(`${pages.url}/p/acme-academy`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(PUBLIC_PAGE_CSP);
    expect(await res.text()).toBe('');
  });

  it.each([
    ['GET', '/'],
    ['GET', '/p/'],
    ['GET', '/p/acme-academy/more'],
    ['GET', '/p/Acme'],
    ['GET', '/api/public/pages/acme-academy'],
    ['GET', '/config.json'],
    ['POST', '/p/acme-academy'],
    ['DELETE', '/p/acme-academy'],
  ])('answers %s %s with a plain 404 page under the page CSP, without asking the API', async (method, path) => {
    const res = await fetch(`${pages.url}${path}`, { method });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(PUBLIC_PAGE_CSP);
    expect(await res.text()).toContain('<h1>Page not found</h1>');
    expect(received).toEqual([]);
  });

  it('answers 502 when the API is not running', async () => {
    const lines: string[] = [];
    const orphan = await startPagesServer({ port: 0, apiUrl: 'http://127.0.0.1:9', log: (line) => lines.push(line) });
    try {
      const res = await fetch(`${orphan.url}/p/acme-academy`);
      expect(res.status).toBe(502);
      expect(await res.text()).toContain('The API is not answering');
      expect(lines.join('\n')).toContain('/p/acme-academy');
    } finally {
      await orphan.stop();
    }
  });

  it('names PAGES_PORT when its port is taken', async () => {
    const taken = Number(new URL(pages.url).port);
    await expect(startPagesServer({ port: taken, apiUrl: gatewayUrl })).rejects.toThrow(PortInUseError);
    await expect(startPagesServer({ port: taken, apiUrl: gatewayUrl })).rejects.toThrow(/PAGES_PORT=<port>/);
  });
});
