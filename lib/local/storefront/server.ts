import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { escapeHtml } from '../http-replies.ts';
import { closeServer, listen } from '../http-server.ts';

/**
 * The storefront entry, locally (issue 32 point 3, decision 0055): what a creator's custom domain reaches. In AWS the
 * domain's CloudFront distribution tenant serves the SPA as the app's distribution does; here one HTTP server
 * (`StorefrontUrl` in outputs.json) takes every request, reads its `Host`, and asks the API which creator that
 * hostname serves (`GET /api/public/domains/{hostname}`: active domains only). Then, for that creator only:
 * - `/`: their public page; `/c/{courseId}`: one of their courses; `/b/{bundleId}`: one of their bundles (issue 34);
 *   `/verify/{id}`: one of their certificates. Another creator's course, bundle or certificate, like any other path, is 404: the domain serves this storefront and nothing else
 *   (sign-in and dashboards stay on the platform's own address).
 * - the page is the SPA's own `index.html` when the web app runs (`webUrl`, the dev server or the built app's; its
 *   assets and `/api/public/*` passed through), unchanged, as the domain's CloudFront tenant serves the bucket's: the
 *   SPA looks its host up itself and shows that creator's storefront (web/src/features/storefront/storefront-host.ts).
 *   A path the domain does not serve gets the same index.html with a 404 status: the SPA shows its not-found page,
 *   linking to the platform.
 *   Without the web app (the integration tests), a plain page naming the creator, so the routing is seen all the same.
 * An unknown, pending or removed hostname: the 404 page.
 */
export interface StorefrontServerOptions {
  port: number;
  /** The local gateway, e.g. http://127.0.0.1:3001. */
  apiUrl: string;
  /** The web app (the vite dev server, or lib/local/web/spa-server.ts serving the build), when it runs. */
  webUrl?: string;
  log?: (line: string) => void;
}

export interface StorefrontServer {
  url: string;
  stop(): Promise<void>;
}

const getJson = async (base: string, path: string): Promise<{ status: number; body: Record<string, unknown> | undefined }> => {
  const answer = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(10_000) });
  const text = await answer.text();
  let body: Record<string, unknown> | undefined;
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    body = undefined;
  }
  return { status: answer.status, body };
};

const page = (res: ServerResponse, status: number, title: string, body: string): void => {
  const html = `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head><body>${body}</body></html>\n`;
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Cache-Control': 'no-cache',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  });
  res.end(html);
};
const notFound = (res: ServerResponse) => page(res, 404, 'Page not found', '<h1>Page not found</h1><p>There is no storefront page at this address.</p>');

/** The path's storefront page, if it is one: `/`, `/c/{courseId}`, `/b/{bundleId}`, `/verify/{id}`. */
const storefrontPage = (
  path: string,
): { kind: 'creator' } | { kind: 'course'; id: string } | { kind: 'bundle'; id: string } | { kind: 'certificate'; id: string } | undefined => {
  if (path === '/' || path === '') return { kind: 'creator' };
  const course = /^\/c\/([A-Za-z0-9_-]{1,100})\/?$/.exec(path)?.[1];
  if (course) return { kind: 'course', id: course };
  const bundle = /^\/b\/([A-Za-z0-9_-]{1,100})\/?$/.exec(path)?.[1];
  if (bundle) return { kind: 'bundle', id: bundle };
  const certificate = /^\/verify\/([A-Za-z0-9_-]{1,100})\/?$/.exec(path)?.[1];
  if (certificate) return { kind: 'certificate', id: certificate };
  return undefined;
};

/** A file of the SPA (vite's modules and client, `/config.json`, `/assets/...`), not a page. */
export const isAsset = (path: string): boolean =>
  path.startsWith('/@') || path.startsWith('/src/') || path.startsWith('/node_modules/') || /\/[^/]+\.[A-Za-z0-9]+$/.test(path);

export const startStorefrontServer = async (options: StorefrontServerOptions): Promise<StorefrontServer> => {
  const { apiUrl, webUrl } = options;

  /** Whose course it is (its public page names the creator's slug). */
  const courseCreator = async (courseId: string): Promise<{ slug: string | null; title: string } | undefined> => {
    const { status, body } = await getJson(apiUrl, `/api/public/courses/${encodeURIComponent(courseId)}`);
    return status === 200 && body ? { slug: (body['creatorSlug'] as string | null) ?? null, title: String(body['title']) } : undefined;
  };

  /** The page's title if it is this creator's, undefined (404) otherwise. */
  const titleOf = async (slug: string, target: NonNullable<ReturnType<typeof storefrontPage>>): Promise<string | undefined> => {
    switch (target.kind) {
      case 'creator': {
        const { status, body } = await getJson(apiUrl, `/api/public/creators/${encodeURIComponent(slug)}`);
        return status === 200 && body ? String(body['displayName']) : undefined;
      }
      case 'course': {
        const course = await courseCreator(target.id);
        return course?.slug === slug ? course.title : undefined;
      }
      case 'bundle': {
        const { status, body } = await getJson(apiUrl, `/api/public/bundles/${encodeURIComponent(target.id)}`);
        return status === 200 && body?.['creatorSlug'] === slug ? String(body['title']) : undefined;
      }
      case 'certificate': {
        const { status, body } = await getJson(apiUrl, `/api/public/certificates/${encodeURIComponent(target.id)}`);
        const certificate = body?.['certificate'] as { courseUrl?: string; courseTitle?: string } | undefined;
        const courseId = status === 200 ? /\/c\/([^/?#]+)/.exec(certificate?.courseUrl ?? '')?.[1] : undefined;
        if (!courseId) return undefined;
        return (await courseCreator(decodeURIComponent(courseId)))?.slug === slug ? `Certificate: ${certificate?.courseTitle ?? ''}` : undefined;
      }
    }
  };

  /** The SPA's index.html from the web app, as it is (the SPA finds its creator itself); undefined when it does not run. */
  const spaIndex = async (): Promise<string | undefined> => {
    if (!webUrl) return undefined;
    try {
      // /index.html, not /: the built app's / is landing.html, the marketing page prerendered into it.
      const answer = await fetch(`${webUrl}/index.html`, { signal: AbortSignal.timeout(5_000) });
      return answer.ok ? await answer.text() : undefined;
    } catch {
      return undefined;
    }
  };
  /** A path this domain does not serve: the SPA's not-found page (404) when it runs, the plain one otherwise. */
  const notServed = async (res: ServerResponse): Promise<void> => {
    const spa = await spaIndex();
    return spa === undefined ? notFound(res) : sendSpa(res, spa, 404);
  };

  /** Assets and the public API, passed to the web app (whose /api proxy reaches the gateway). */
  const pass = (req: IncomingMessage, res: ServerResponse, base: string): void => {
    const target = new URL(base);
    const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => (res.headersSent ? res.destroy() : notFound(res)));
    req.pipe(upstream);
  };

  const server = createServer((req, res) => {
    void (async () => {
      const hostname = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const domain = hostname ? await getJson(apiUrl, `/api/public/domains/${encodeURIComponent(hostname)}`) : undefined;
      const slug = domain?.status === 200 ? (domain.body?.['creatorSlug'] as string | null | undefined) : undefined;
      if (!slug || (req.method !== 'GET' && req.method !== 'HEAD')) return notFound(res);
      const target = storefrontPage(path);
      if (!target) {
        // The SPA's own files (the dev server's modules, files with an extension: never a page, which the dev server
        // would answer with index.html) and the public API it reads (through the dev server's proxy, the local app
        // distribution, when it runs), as the tenant passes `/api/public/*`; nothing else.
        if (webUrl && isAsset(path)) return pass(req, res, webUrl);
        if (path.startsWith('/api/public/')) return pass(req, res, webUrl ?? apiUrl);
        return notServed(res);
      }
      const title = await titleOf(slug, target);
      if (title === undefined) return notServed(res);
      const spa = await spaIndex();
      if (spa !== undefined) return sendSpa(res, spa);
      return page(res, 200, title, `<h1>${escapeHtml(title)}</h1><p data-storefront="${escapeHtml(slug)}">${escapeHtml(hostname)}</p>`);
    })().catch((error: unknown) => {
      options.log?.(`[storefront] ${req.headers.host ?? ''}${req.url ?? ''}: ${(error as Error).message}`);
      if (!res.headersSent) page(res, 502, 'The API is not answering', '<h1>The API is not answering</h1>');
    });
  });

  await listen(server, options.port, 'STOREFRONT_PORT');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stop: () => closeServer(server) };
};

const sendSpa = (res: ServerResponse, html: string, status = 200): void => {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(html), 'Cache-Control': 'no-cache' });
  res.end(html);
};
