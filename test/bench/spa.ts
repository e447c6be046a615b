import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildWeb, webDist } from '#lib/local/web/build.ts';

export { buildWeb, webDist };

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
