import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const fromHere = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/** Import aliases, shared with vitest.config.ts: `@/...` is web/src, `@contracts/...` the shared zod contracts. */
export const alias = {
  '@contracts': fromHere('../functions/contracts'),
  '@': fromHere('./src'),
};

/** Where `/api` goes in dev: the local gateway (the local cloud sets this when it picks its ports). */
const apiProxyTarget = process.env.API_PROXY_TARGET ?? 'http://127.0.0.1:3001';

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

export default defineConfig({
  root: fromHere('.'),
  plugins: [react(), tailwindcss(), devConfigJson()],
  resolve: { alias },
  server: {
    host: '127.0.0.1',
    strictPort: true,
    proxy: {
      '/api': { target: apiProxyTarget, changeOrigin: false },
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
  },
});
