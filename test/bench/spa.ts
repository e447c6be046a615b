import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** Where `npm run build -w web` writes the SPA. */
export const webDist = join(repoRoot, 'web', 'dist');

/** `npm run build -w web` (vite build into web/dist); rejects with the build's last lines on failure. */
export const buildWeb = (): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', 'build', '-w', 'web'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) return resolve();
      const lines = output.split('\n').filter((l) => /error/i.test(l));
      reject(new Error(`web build failed (exit ${code}): ${(lines[0] ?? output.trim().split('\n').pop() ?? '').trim()}`));
    });
  });

export interface Asset {
  file: string;
  gzipBytes: number;
}

export interface SpaSizes {
  /** The entry script and its modulepreload links: what the browser fetches before the first render. */
  initialJs: Asset[];
  css: Asset[];
  /** Every other script: route-level chunks loaded on navigation. Largest first. */
  lazyJs: Asset[];
}

const gzipSize = (file: string): number => gzipSync(readFileSync(join(webDist, file))).length;

/** `/assets/x.js` and `./assets/x.js` in index.html -> `assets/x.js` under web/dist. */
const local = (href: string): string => href.replace(/^\.?\//, '');

const attributes = (tag: string): Record<string, string> =>
  Object.fromEntries([...tag.matchAll(/([a-z-]+)(?:="([^"]*)")?/gi)].map((m) => [m[1]!.toLowerCase(), m[2] ?? '']));

export const spaSizes = (): SpaSizes => {
  const html = readFileSync(join(webDist, 'index.html'), 'utf8');
  const initial = new Set<string>();
  const css = new Set<string>();
  for (const [tag] of html.matchAll(/<(?:script|link)\b[^>]*>/gi)) {
    const a = attributes(tag.slice(1, -1));
    if (tag.toLowerCase().startsWith('<script') && a.src && !/^https?:/.test(a.src)) initial.add(local(a.src));
    if (a.rel === 'modulepreload' && a.href) initial.add(local(a.href));
    if (a.rel === 'stylesheet' && a.href && !/^https?:/.test(a.href)) css.add(local(a.href));
  }
  if (initial.size === 0) throw new Error('web/dist/index.html names no entry script');
  const asset = (file: string): Asset => ({ file, gzipBytes: gzipSize(file) });
  const lazy = readdirSync(join(webDist, 'assets'))
    .map((name) => `assets/${name}`)
    .filter((file) => file.endsWith('.js') && !initial.has(file));
  return {
    initialJs: [...initial].map(asset),
    css: [...css].map(asset),
    lazyJs: lazy.map(asset).sort((a, b) => b.gzipBytes - a.gzipBytes),
  };
};
