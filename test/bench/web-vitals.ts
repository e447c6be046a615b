import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import type { LocalCloud } from '#lib/local/cloud.ts';
import { webConfig, type Outputs } from '#lib/local/outputs.ts';
import { startSpaServer } from '#lib/local/web/spa-server.ts';
import playwrightConfig from '../../playwright.config.ts';
import { buildWeb, webDist } from './spa.ts';
import { median } from './stats.ts';
import { errorRow, formatTable, row, section, type Row } from './table.ts';

/**
 * What a person feels (QUALITY.md, Performance): Largest Contentful Paint and total blocking time of the built SPA
 * in Chromium with the CPU slowed 4x, for the marketing page and a signed-in creator's dashboard. Each load is cold:
 * a new browser context (empty HTTP cache, no open connections), the median of LOADS per page. bench.ts calls
 * `benchWebVitals` with its local cloud; run alone (`node --import tsx test/bench/web-vitals.ts [--no-build]`) it
 * builds the web app, starts a local cloud of its own and prints its rows.
 */

export const LOADS = 5;
const CPU_SLOWDOWN = 4;
const LCP_BUDGET_MS = 1000;
const TBT_BUDGET_MS = 200;
/** Cumulative layout shift: Web Vitals' "good". An app shell painted before the scripts must not move when React takes over. */
const CLS_BUDGET = 0.1;
/** A page is settled once this long passed with no long task and no network response (after network idle). */
const QUIET_MS = 1000;
/** Long tasks block input for what exceeds this (the TBT definition). */
const BLOCKING_AFTER_MS = 50;
const LOAD_TIMEOUT_MS = 30_000;

/** The browser of the e2e tests: Debian's Chromium with playwright.config.ts's flags (no request leaves loopback). */
const launchOptions = playwrightConfig.use?.launchOptions ?? {};
const viewport = playwrightConfig.use?.viewport ?? { width: 1280, height: 800 };

// The in-page parts are plain JavaScript source: the root tsconfig has no DOM types, and a function passed to
// page.evaluate would carry whatever helpers the TypeScript transform adds.

/** How a report names an element: its tag and the start of its text. */
const describeElement = `(el) => {
  const text = (el.textContent ?? '').replace(/\\s+/g, ' ').trim();
  return el.tagName.toLowerCase() + (text ? ' "' + (text.length > 28 ? text.slice(0, 27) + '…' : text) + '"' : '');
}`;

/**
 * Registered before any script of the page runs (addInitScript), so no long task of the load escapes it. The LCP
 * candidates are named as they come: an element painted early and replaced later by the same content (an app shell
 * React renders again) is no longer in the page, and its entry no longer names it, when the load is read.
 */
const observeLongTasks = `
  window.__benchLongTasks = [];
  window.__benchLcpElements = {};
  window.__benchLayoutShift = 0;
  new PerformanceObserver((list) => {
    for (const task of list.getEntries()) window.__benchLongTasks.push([task.startTime, task.duration]);
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.element) window.__benchLcpElements[entry.startTime] = (${describeElement})(entry.element);
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const shift of list.getEntries()) if (!shift.hadRecentInput) window.__benchLayoutShift += shift.value;
  }).observe({ type: 'layout-shift', buffered: true });
`;

/** The page clock now and the end of the last long task or network response. */
const lastActivity = `(() => {
  const ends = [0];
  for (const [start, duration] of window.__benchLongTasks ?? []) ends.push(start + duration);
  for (const entry of performance.getEntriesByType('resource')) ends.push(entry.responseEnd);
  return { now: performance.now(), last: Math.max(...ends) };
})()`;

/** The final LCP candidate (buffered: read once the page is settled), FCP and the long tasks, page clock in ms. */
const readVitals = `new Promise((resolve) => {
  const done = (lcp) => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    const el = lcp?.element;
    const named = lcp ? window.__benchLcpElements?.[lcp.startTime] : undefined;
    resolve({
      lcp: lcp ? lcp.startTime : null,
      lcpElement: el ? (${describeElement})(el) : named ? named + ' (since replaced)' : (lcp?.url || null),
      fcp: fcp ? fcp.startTime : null,
      longTasks: window.__benchLongTasks ?? [],
      cls: window.__benchLayoutShift ?? 0,
    });
  };
  new PerformanceObserver((list, observer) => {
    observer.disconnect();
    done(list.getEntries().at(-1));
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  setTimeout(() => done(undefined), 3000);
})`;

interface PageVitals {
  lcp: number | null;
  lcpElement: string | null;
  fcp: number | null;
  longTasks: [start: number, duration: number][];
  cls: number;
}

export interface Sample {
  lcp: number;
  tbt: number;
  fcp: number;
  lcpElement: string;
  /** Every layout shift of the load, summed (an upper bound of Web Vitals' CLS, which takes the worst burst). */
  cls: number;
}

/**
 * Total blocking time as Lighthouse counts it: each long task's time beyond 50 ms, a task that straddles FCP counted
 * from FCP on. The window ends where the load settled (QUIET_MS without a long task or a response).
 */
export const totalBlockingTime = (longTasks: readonly (readonly [number, number])[], fcp: number): number =>
  longTasks.reduce((sum, [start, duration]) => sum + Math.max(0, start + duration - Math.max(start, fcp) - BLOCKING_AFTER_MS), 0);

/** Network idle (Playwright: 500 ms without a request), then QUIET_MS without a long task or a response. */
const settle = async (page: Page): Promise<void> => {
  await page.waitForLoadState('networkidle', { timeout: LOAD_TIMEOUT_MS });
  const until = Date.now() + LOAD_TIMEOUT_MS;
  for (;;) {
    const { now, last } = await page.evaluate<{ now: number; last: number }>(lastActivity);
    if (now - last >= QUIET_MS) return;
    if (Date.now() > until) throw new Error(`${page.url()} was still busy after ${LOAD_TIMEOUT_MS / 1000} s`);
    await page.waitForTimeout(Math.min(250, QUIET_MS - (now - last)));
  }
};

interface Target {
  name: string;
  path: string;
  storageState?: BrowserContextOptions['storageState'];
  /** Resolves once the page's main content is on screen; throws when the load ended somewhere else. */
  ready(page: Page): Promise<void>;
}

const onPath = (page: Page, path: string): void => {
  const landed = new URL(page.url()).pathname;
  if (landed !== path) throw new Error(`the load of ${path} ended on ${landed}`);
};

/** One cold load of `target`: a new context, the CPU slowed, settled, then read. */
const measureLoad = async (browser: Browser, baseUrl: string, target: Target): Promise<Sample> => {
  const context = await browser.newContext({ viewport, ...(target.storageState ? { storageState: target.storageState } : {}) });
  try {
    const page = await context.newPage();
    await page.addInitScript(observeLongTasks);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.goto(`${baseUrl}${target.path}`, { waitUntil: 'load', timeout: LOAD_TIMEOUT_MS });
    await target.ready(page);
    await settle(page);
    const vitals = await page.evaluate<PageVitals>(readVitals);
    if (vitals.fcp === null) throw new Error(`${target.path}: no first-contentful-paint entry`);
    if (vitals.lcp === null) throw new Error(`${target.path}: no largest-contentful-paint entry`);
    return {
      lcp: vitals.lcp,
      fcp: vitals.fcp,
      tbt: totalBlockingTime(vitals.longTasks, vitals.fcp),
      lcpElement: vitals.lcpElement ?? 'unknown element',
      cls: vitals.cls,
    };
  } finally {
    await context.close();
  }
};

/** Signs in once through the real sign-in page (CPU not slowed: not measured) and keeps the session's storage. */
const signInState = async (browser: Browser, baseUrl: string, email: string, password: string) => {
  const context = await browser.newContext({ viewport });
  try {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/auth/login`, { timeout: LOAD_TIMEOUT_MS });
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/dashboard\/creator$/, { timeout: LOAD_TIMEOUT_MS });
    return await context.storageState();
  } finally {
    await context.close();
  }
};

const marketing: Target = {
  name: '/ (anonymous)',
  path: '/',
  ready: async (page) => {
    await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: LOAD_TIMEOUT_MS });
    onPath(page, '/');
  },
};

const creatorDashboard = (storageState: BrowserContextOptions['storageState']): Target => ({
  name: '/dashboard/creator (signed in)',
  path: '/dashboard/creator',
  storageState,
  ready: async (page) => {
    await page.getByRole('heading', { name: 'Creator Dashboard' }).waitFor({ timeout: LOAD_TIMEOUT_MS });
    onPath(page, '/dashboard/creator');
  },
});

const mostCommon = (values: readonly string[]): string => {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
};

const seconds = (value: number): string => `${(value / 1000).toFixed(2)} s`;
const millis = (value: number): string => `${Math.round(value)} ms`;

/** The median, then the range of the loads: "2.22 s (2.06-2.30)". */
const spread = (values: readonly number[], format: (value: number) => string): string => {
  const [low, high] = [Math.min(...values), Math.max(...values)];
  return `${format(median(values))} (${format(low).split(' ')[0]}-${format(high)})`;
};

const pageRows = (name: string, samples: readonly Sample[]): Row[] => {
  const lcp = median(samples.map((s) => s.lcp));
  const tbt = median(samples.map((s) => s.tbt));
  return [
    row(`${name} LCP, median of ${samples.length} (range)`, spread(samples.map((s) => s.lcp), seconds), `<= ${seconds(LCP_BUDGET_MS)}`, lcp <= LCP_BUDGET_MS),
    row(
      `${name} TBT, FCP to settled (${QUIET_MS / 1000} s without task or response)`,
      spread(samples.map((s) => s.tbt), millis),
      `<= ${millis(TBT_BUDGET_MS)}`,
      tbt <= TBT_BUDGET_MS,
    ),
    row(
      `${name} layout shift (CLS, all shifts summed)`,
      spread(samples.map((s) => s.cls), (value) => value.toFixed(3)),
      `<= ${CLS_BUDGET}`,
      median(samples.map((s) => s.cls)) <= CLS_BUDGET,
    ),
    row(`${name} FCP; LCP element`, `${seconds(median(samples.map((s) => s.fcp)))}; ${mostCommon(samples.map((s) => s.lcpElement))}`),
  ];
};

export interface WebVitalsOptions {
  outputs: Outputs;
  /** The built SPA (web/dist). */
  distDir: string;
  progress: (line: string) => void;
}

/**
 * The rows of this part; never throws. A page whose loads fail is an error row, and the other page still runs. The
 * two pages alternate, load by load, so a noisy moment of the shared machine falls on both alike.
 */
export const benchWebVitals = async ({ outputs, distDir, progress }: WebVitalsOptions): Promise<Row[]> => {
  const rows: Row[] = [];
  let server: Awaited<ReturnType<typeof startSpaServer>> | undefined;
  let browser: Browser | undefined;
  try {
    server = await startSpaServer({ distDir, config: webConfig(outputs), apiUrl: outputs.ApiUrl });
    browser = await chromium.launch({ ...launchOptions, headless: true });
    progress(`signing in as ${outputs.DemoCreatorEmail} through ${server.url}/auth/login`);
    const targets: Target[] = [marketing];
    const results = new Map<Target, Sample[] | Error>([[marketing, []]]);
    try {
      const dashboard = creatorDashboard(await signInState(browser, server.url, outputs.DemoCreatorEmail, outputs.DemoCreatorPassword));
      targets.push(dashboard);
      results.set(dashboard, []);
    } catch (error) {
      rows.push(errorRow('/dashboard/creator (signed in): sign-in through /auth/login', error));
    }
    for (let load = 1; load <= LOADS; load++) {
      for (const target of targets) {
        const samples = results.get(target);
        if (!Array.isArray(samples)) continue;
        progress(`cold load ${load}/${LOADS} of ${target.path} (CPU ${CPU_SLOWDOWN}x slower)`);
        try {
          samples.push(await measureLoad(browser, server.url, target));
        } catch (error) {
          results.set(target, error as Error);
        }
      }
    }
    for (const target of targets) {
      const result = results.get(target)!;
      rows.push(...(result instanceof Error ? [errorRow(`${target.name} LCP / TBT`, result)] : pageRows(target.name, result)));
    }
  } catch (error) {
    rows.push(errorRow('LCP / TBT in Chromium', error));
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.stop();
  }
  return rows;
};

export const webVitalsSection = `What a person feels: built SPA served as CloudFront would, Chromium, CPU ${CPU_SLOWDOWN}x slower, cold loads`;

/** Run alone: builds the web app (unless --no-build), starts a local cloud of its own, prints this part's rows. */
const runAlone = async (): Promise<void> => {
  const { startLocalCloud } = await import('#lib/local/cloud.ts');
  const progress = (line: string): void => void process.stderr.write(`[web-vitals] ${line}\n`);
  process.env.LOG_LEVEL ??= 'warn';
  const workDir = mkdtempSync(join(tmpdir(), 'bench-web-vitals-'));
  let cloud: Promise<LocalCloud> | undefined;
  const stop = async () => {
    const starting = cloud;
    cloud = undefined;
    await starting?.then((c) => c.stop()).catch(() => undefined);
    rmSync(workDir, { recursive: true, force: true });
  };
  process.on('SIGINT', () => void stop().finally(() => process.exit(130)));
  process.on('SIGTERM', () => void stop().finally(() => process.exit(143)));
  try {
    if (!process.argv.includes('--no-build')) {
      progress('building the web app (npm run build -w web)');
      await buildWeb();
    }
    progress('starting the local cloud');
    cloud = startLocalCloud({ dataDir: join(workDir, 'local'), ports: 'auto', web: false, seed: true, log: () => undefined });
    const { outputs } = await cloud;
    const rows = [section(webVitalsSection), ...(await benchWebVitals({ outputs, distDir: webDist, progress }))];
    process.stdout.write(`\n${formatTable(rows)}\n`);
  } finally {
    await stop();
  }
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runAlone();
