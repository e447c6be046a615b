import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { createServer, defineConfig, type Plugin, type Rollup } from 'vite';
import type * as DashboardShells from './src/app/dashboard-shell.tsx';
import type * as Prerender from './src/app/prerender.tsx';
import { PRERENDERED_ATTRIBUTE, sessionHintScript } from './src/app/session-hint.ts';

const fromHere = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/** Import aliases, shared with vitest.config.ts: `@/...` is web/src, `@contracts/...` the shared zod contracts. */
export const alias = {
  '@contracts': fromHere('../functions/contracts'),
  '@': fromHere('./src'),
};

/** Where `/api` goes in dev: the local gateway (the local cloud sets this when it picks its ports). */
const apiProxyTarget = process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:3001';

/**
 * `name:value` the proxy adds to every `/api` request, as the app's CloudFront distribution adds its origin header
 * (the local cloud sets it; the gateway checks it when started with LOCAL_EDGE_ONLY=1; decision 0028).
 */
const apiProxyHeaders = (() => {
  const header = process.env.API_PROXY_ORIGIN_HEADER;
  const cut = header?.indexOf(':') ?? -1;
  return header && cut > 0 ? { [header.slice(0, cut)]: header.slice(cut + 1) } : {};
})();

/**
 * In the cloud `/config.json` is a file deployed next to index.html. In dev the local cloud writes the same
 * keys to a file and names it in WEB_CONFIG_FILE; the file is read on every request, so it may be written
 * after the dev server starts and rewritten when the local cloud restarts.
 */
export function devConfigJson(file = process.env.WEB_CONFIG_FILE): Plugin {
  return {
    name: 'dev-config-json',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use('/config.json', (req, res, next) => {
        if (req.method !== 'GET' && req.method !== 'HEAD') return next();
        const send = (status: number, body: string): void => {
          res.statusCode = status;
          res.setHeader('Content-Type', 'application/json');
          res.setHeader('Cache-Control', 'no-cache');
          res.end(body);
        };
        if (!file) {
          send(404, JSON.stringify({ error: 'WEB_CONFIG_FILE is not set: start the web app with `npm start`' }));
          return;
        }
        readFile(file, 'utf8').then(
          (text) => send(200, text),
          () => send(404, JSON.stringify({ error: `WEB_CONFIG_FILE ${file} cannot be read` })),
        );
      });
    },
  };
}

/** The chunks `file` imports statically, directly or not: what the browser loads before evaluating it. */
function staticImports(bundle: Rollup.OutputBundle, file: string, seen = new Set<string>()): Set<string> {
  const chunk = bundle[file];
  if (chunk?.type !== 'chunk') return seen;
  for (const dep of chunk.imports) {
    if (seen.has(dep)) continue;
    seen.add(dep);
    staticImports(bundle, dep, seen);
  }
  return seen;
}

/**
 * The app's modules as Node runs them (aliases, JSX); dependencies are imported from node_modules. Its own cache
 * directory: a dev server running meanwhile (`npm start`, the browser tests) keeps its optimized deps.
 */
async function withSsr<T>(run: (load: (path: string) => Promise<Record<string, unknown>>) => Promise<T>): Promise<T> {
  const server = await createServer({
    configFile: false,
    root: fromHere('.'),
    cacheDir: fromHere('node_modules/.vite-prerender'),
    resolve: { alias },
    plugins: [react()],
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false, watch: null },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  try {
    return await run((path) => server.ssrLoadModule(path));
  } finally {
    await server.close();
  }
}

/**
 * Build only: shapes the built index.html and writes landing.html.
 * - index.html: the stylesheet first in <head> (the first paint waits for it, and the browser asks for files in the
 *   order it finds them), then the session hint (src/app/session-hint.ts), which preloads what a visitor with a
 *   stored session needs at once: the profile's chunk (GET /api/me and its contract), and Amplify's lazy chunk when
 *   the stored access token must be refreshed first; it also carries the app shells of src/app/dashboard-shell.tsx
 *   (rendered here), which it paints into #root for a signed-in visitor of such a page.
 * - landing.html: the same shell with the marketing page rendered into its root by src/app/prerender.tsx, and the
 *   landing chunk (with its imports) preloaded. CloudFront serves it for `/` (lib/constructs/static-site.ts), every
 *   other client route keeps the empty shell: the marketing page is on screen at the first paint instead of after
 *   the scripts, the config and the page's chunk arrived and ran; main.tsx then hydrates it.
 */
export function shapeHtml(): Plugin {
  let outDir = '';
  let hintFile = '';
  let landingPreloads: string[] = [];
  let landingMarkup = '';
  return {
    name: 'shape-html',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    // Runs before Vite writes index.html (its transformIndexHtml hooks below then know the hint's file name).
    async generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((output) => output.type === 'chunk');
      const entry = chunks.find((chunk) => chunk.isEntry);
      const chunkOf = (path: string) => chunks.find((chunk) => chunk.facadeModuleId === fromHere(path));
      const landing = chunkOf('./src/features/marketing/screens/landing-screen.tsx');
      const amplify = chunkOf('./src/lib/amplify.ts');
      const profile = chunkOf('./src/lib/session-me.ts');
      if (!entry || !landing || !amplify || !profile) return this.error('shape-html: the entry, landing, Amplify or profile chunk is missing');
      const loadedByEntry = staticImports(bundle, entry.fileName, new Set([entry.fileName]));
      const withImports = (file: string) => [file, ...staticImports(bundle, file)].filter((dep) => !loadedByEntry.has(dep));
      landingPreloads = withImports(landing.fileName);
      const forSession = withImports(profile.fileName);
      const forRefresh = withImports(amplify.fileName).filter((file) => !forSession.includes(file));
      const shells = await withSsr(async (load) => {
        const { prerenderLanding } = (await load('/src/app/prerender.tsx')) as typeof Prerender;
        const { prerenderDashboardShells } = (await load('/src/app/dashboard-shell.tsx')) as typeof DashboardShells;
        landingMarkup = await prerenderLanding();
        return prerenderDashboardShells();
      });
      const hint = this.emitFile({ type: 'asset', name: 'session-hint.js', source: sessionHintScript(forSession, forRefresh, shells) });
      hintFile = this.getFileName(hint);
    },
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const stylesheets = html.match(/<link rel="stylesheet"[^>]*>\n?/g) ?? [];
        const rest = stylesheets.reduce((out, tag) => out.replace(tag, ''), html);
        const firstScript = rest.search(/\s*<script type="module"/);
        if (stylesheets.length === 0 || firstScript < 0 || !hintFile) throw new Error('shape-html: no stylesheet or module script in index.html');
        const head = [...stylesheets.map((tag) => tag.trim()), `<script src="/${hintFile}"></script>`];
        return `${rest.slice(0, firstScript)}\n    ${head.join('\n    ')}${rest.slice(firstScript)}`;
      },
    },
    async closeBundle() {
      const shell = await readFile(join(outDir, 'index.html'), 'utf8');
      const emptyRoot = '<div id="root"></div>';
      if (!shell.includes(emptyRoot)) throw new Error(`shape-html: no ${emptyRoot} in index.html`);
      const markup = landingMarkup;
      const preloads = landingPreloads.map((file) => `\n    <link rel="modulepreload" crossorigin href="/${file}">`);
      // No first paint before the whole hero is parsed (up to the next section): the header alone would flash up
      // first whenever the parser yields early, with the headline a long script task later.
      const expectHero = '\n    <link rel="expect" href="#features" blocking="render">';
      if (!markup.includes('id="features"')) throw new Error('shape-html: the landing page has no #features section');
      const html = shell
        .replace(/\s*<\/head>/, `${expectHero}${preloads.join('')}\n  </head>`)
        .replace(emptyRoot, () => `<div id="root" ${PRERENDERED_ATTRIBUTE}>${markup}</div>`);
      await writeFile(join(outDir, 'landing.html'), html);
    },
  };
}

export default defineConfig({
  root: fromHere('.'),
  plugins: [react(), tailwindcss(), devConfigJson(), shapeHtml()],
  resolve: { alias },
  server: {
    host: '127.0.0.1',
    strictPort: true,
    proxy: {
      '/api': { target: apiProxyTarget, changeOrigin: false, headers: apiProxyHeaders },
      // The public API (issue 31): the API reference page reads /v1/openapi.json from the same origin.
      '/v1': { target: apiProxyTarget, changeOrigin: false, headers: apiProxyHeaders },
    },
    fs: {
      // The shared contracts live outside web/.
      allow: [fromHere('..')],
    },
  },
  // Crawl every screen (they are lazy chunks) at start-up, so the dev server discovers all dependencies at once
  // instead of re-optimising and reloading the page the first time a lazy screen imports a new one.
  optimizeDeps: { entries: ['src/**/*.tsx'] },
  build: {
    outDir: fromHere('dist'),
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Fewer, larger files: every request costs the page main-thread time, and on HTTP/1.1 (the bench's server)
        // a place in the browser's six connections. Everything the entry loads statically is one chunk, and the
        // icons that lazy screens use are one more (a few hundred bytes each, requested one by one otherwise).
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'], priority: 2 },
            { name: 'icons', test: /[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
