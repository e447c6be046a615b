import { readdirSync, readFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Content types of what `vite build` writes into web/dist (S3 stores each object's type at upload). */
const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** lib/constructs/static-site.ts: hashed assets for a year, everything else revalidated on every load. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const NO_CACHE = 'no-cache';

/** CloudFront compresses text of 1,000 bytes to 10 MB when the viewer accepts it (over plain HTTP Chromium offers gzip). */
const COMPRESS_MIN_BYTES = 1000;
const compressible = /^(text\/|application\/(json|javascript|manifest\+json)|image\/svg)/;

interface StoredFile {
  body: Buffer;
  gzip?: Buffer;
  type: string;
  cacheControl: string;
}

const store = (body: Buffer, type: string, cacheControl: string): StoredFile => ({
  body,
  type,
  cacheControl,
  ...(compressible.test(type) && body.length >= COMPRESS_MIN_BYTES ? { gzip: gzipSync(body, { level: 6 }) } : {}),
});

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );

/**
 * The viewer request function of static-site.ts `spaFallbackCode`: `/` -> landing.html (the shell with the marketing
 * page prerendered), any other path without a dot in its last segment (a client-side route) -> the shell.
 */
const objectFor = (path: string): string =>
  path === '/' ? '/landing.html' : path.lastIndexOf('.') <= path.lastIndexOf('/') ? '/index.html' : path;

export interface SpaServerOptions {
  /** The built SPA (web/dist). Read once at start: the files are served from memory, as from an edge cache. */
  distDir: string;
  /** `/config.json`: in the cloud a file the deployment writes next to index.html. */
  config: Record<string, unknown>;
  /** Where `/api/*` and `/v1/*` go: the local gateway. */
  apiUrl: string;
  /** Headers added to what goes to the API, as the distribution adds its origin header (decision 0028). */
  apiHeaders?: Record<string, string>;
  /** The port to listen on (default: a free one). */
  port?: number;
}

/** The paths the app's distribution sends to the API origin (lib/constructs/static-site.ts; the public API's reference reads /v1). */
const toApi = (path: string): boolean => path.startsWith('/api/') || path.startsWith('/v1/');

/**
 * The built SPA served as the CloudFront distribution of lib/constructs/static-site.ts serves it, on loopback: the
 * files of web/dist with their Cache-Control, gzip when accepted, landing.html for `/` and index.html for other
 * client-side routes (the viewer request function), `/config.json`, and `/api/*` and `/v1/*` passed to the gateway
 * uncached with every header but Host (and the origin header, when given). What it leaves out costs a page load nothing
 * measurable here: TLS, HTTP/2 (loopback has no round trips to save), the response headers policy. The bench measures
 * the SPA through it, and the browser tests run against it (`web: 'built'` in lib/local/cloud.ts): the pages they
 * load are the ones users load, and each costs a few requests instead of the dev server's hundreds of modules.
 */
export const startSpaServer = async (opts: SpaServerOptions): Promise<{ url: string; stop(): Promise<void> }> => {
  const files = new Map<string, StoredFile>();
  for (const file of filesUnder(opts.distDir)) {
    const path = `/${relative(opts.distDir, file).split(sep).join('/')}`;
    const type = contentTypes[extname(file).toLowerCase()] ?? 'application/octet-stream';
    files.set(path, store(readFileSync(file), type, path.startsWith('/assets/') ? IMMUTABLE : NO_CACHE));
  }
  if (!files.has('/index.html')) throw new Error(`${opts.distDir}/index.html does not exist: build the web app first (npm run build -w web)`);
  files.set('/config.json', store(Buffer.from(JSON.stringify(opts.config)), 'application/json', NO_CACHE));
  const api = new URL(opts.apiUrl);

  const serveFile = (req: IncomingMessage, res: ServerResponse, path: string): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('Only GET and HEAD outside /api/*.');
      return;
    }
    const file = files.get(objectFor(path));
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`No such file: ${path}`);
      return;
    }
    const gzip = file.gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')) ? file.gzip : undefined;
    const body = gzip ?? file.body;
    res.writeHead(200, {
      'content-type': file.type,
      'cache-control': file.cacheControl,
      'content-length': body.length,
      vary: 'Accept-Encoding',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const proxy = (req: IncomingMessage, res: ServerResponse): void => {
    const upstream = request(
      { host: api.hostname, port: api.port, method: req.method, path: req.url, headers: { ...req.headers, host: api.host, ...opts.apiHeaders } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`The API origin failed: ${error.message}`);
    });
    req.pipe(upstream);
  };

  const server = createServer((req, res) => {
    const raw = (req.url ?? '/').split('?')[0]!;
    if (toApi(raw)) return proxy(req, res);
    let path: string;
    try {
      path = decodeURIComponent(raw);
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('Malformed path.');
      return;
    }
    serveFile(req, res, path);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
