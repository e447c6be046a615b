import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PUBLIC_PAGE_CSP } from '#contracts/landing.ts';
import { routes } from '#functions/routes.ts';
import { ORIGIN_HEADER } from '#middleware/origin.ts';
import { closeServer, listen } from '../http-server.ts';

/**
 * The pages origin, locally: what the pages distribution is in the cloud (lib/constructs/pages-site.ts). It answers
 * `GET /p/<slug>` with the local gateway's `GET /api/public/pages/<slug>` (with the pages origin's `x-origin-verify`,
 * which that route requires: the app's `/api` path answers it 404), status, body and headers as they come (the
 * page's own Content-Security-Policy included), and 404 for anything else. Like the distribution it forwards no
 * cookie, no Authorization header and no query string, and it sends no cookie back. It listens on its own port, and
 * the local cloud names it by 127.0.0.1 while the app is on localhost: another host, so not even a cookie set for
 * the app's host reaches a published page.
 */
export interface PagesServerOptions {
  port: number;
  /** The local gateway, e.g. http://127.0.0.1:3001. */
  apiUrl: string;
  /** The value it adds as `x-origin-verify`, as the pages distribution does (the page route answers nothing else). */
  originSecret?: string;
  log?: (line: string) => void;
}

export interface PagesServer {
  url: string;
  stop(): Promise<void>;
}

/** A published page's path: `/p/` and one slug-shaped segment (the API decides whether the slug exists). */
const pagePath = /^\/p\/([a-z0-9-]{1,100})$/;

/** The API path that serves a slug, from the route table (the one place a route is declared). */
const publicRoute = routes.find((route) => route.name === 'public-landing-page')!;
export const apiPathOf = (slug: string): string => publicRoute.path.replace('{slug}', encodeURIComponent(slug));

/** Headers that describe one connection, not the answer; node sets its own. Cookies never cross to a page. */
const dropped = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'set-cookie']);

const passedThrough = (headers: IncomingHttpHeaders): OutgoingHttpHeaders =>
  Object.fromEntries(Object.entries(headers).filter(([name, value]) => value !== undefined && !dropped.has(name)));

/** The same headers a page gets, so the origin's own answers are as locked down as the pages. */
const plainHtml = (res: ServerResponse, status: number, title: string, method: string | undefined): void => {
  const body = `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><h1>${title}</h1></body></html>\n`;
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Content-Security-Policy': PUBLIC_PAGE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-cache',
  });
  res.end(method === 'HEAD' ? undefined : body);
};

export const startPagesServer = async (options: PagesServerOptions): Promise<PagesServer> => {
  const api = new URL(options.apiUrl);

  const forward = (req: IncomingMessage, res: ServerResponse, slug: string): void => {
    const upstream = request(
      {
        host: api.hostname,
        port: api.port,
        method: 'GET',
        path: apiPathOf(slug),
        // Only what the distribution's cache key carries: nothing from the viewer but what content it accepts.
        headers: {
          accept: req.headers.accept ?? 'text/html',
          'accept-encoding': req.headers['accept-encoding'] ?? 'identity',
          ...(options.originSecret === undefined ? {} : { [ORIGIN_HEADER]: options.originSecret }),
        },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, passedThrough(answer.headers));
        if (req.method === 'HEAD') {
          answer.resume();
          res.end();
        } else answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      options.log?.(`[pages] ${options.apiUrl} did not answer ${req.url}: ${error.message}`);
      if (!res.headersSent) plainHtml(res, 502, 'The API is not answering', req.method);
      else res.destroy();
    });
    upstream.end();
  };

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const slug = pagePath.exec(path)?.[1];
    if (slug && (req.method === 'GET' || req.method === 'HEAD')) forward(req, res, slug);
    else plainHtml(res, 404, 'Page not found', req.method);
  });

  await listen(server, options.port, 'PAGES_PORT');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, stop: () => closeServer(server) };
};
