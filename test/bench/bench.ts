import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LocalCloud } from '#lib/local/cloud.ts';
import { resetConfig } from '#functions/config.ts';
import { allFunctions, bundleBudget, bundleFunction, coldImportMedian, withoutPowertools, type Bundle, type FunctionEntry } from './bundles.ts';
import { stopOnSignals } from './signals.ts';
import { checkClients, functionGrants, type Grants } from './grants.ts';
import { buildWeb, spaSizes, webDist } from './spa.ts';
import { non2xxCodes } from './load.ts';
import { benchSanitizer } from './sanitize.ts';
import { kb, ms } from './stats.ts';
import { errorRow, formatTable, row, section, type Row } from './table.ts';
import { benchWebVitals, webVitalsSection } from './web-vitals.ts';

/**
 * The bench itself (run.ts starts it): the performance budgets of QUALITY.md, measured in one run on this
 * machine, printed as one table. Nothing here asserts: a budget missed is a ✗ in the table, and the exit code is
 * 0 unless the bench itself crashes. Each part reports its own failure as an "error: ..." row and the run goes on.
 */

const COLD_IMPORT_RUNS = 7;
// The budgets are QUALITY.md's.
const COLD_IMPORT_BUDGET_MS = 100;
/** QUALITY.md: a read route at 50 connections, p50 within 1.5x and p99 within 2x of the raw GetItem floor's. */
const FLOOR_P50_RATIO = 1.5;
const FLOOR_P99_RATIO = 2;
const INITIAL_JS_BUDGET = 150 * 1024;
const CSS_BUDGET = 30 * 1024;

// The handlers' one-line-per-request log would flood the table (tens of thousands of lines); warnings still show.
process.env.LOG_LEVEL ??= 'warn';
// Nor the handlers' business metrics (Powertools' own switch): EMF lines mid-table say nothing about performance.
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

const workDir = mkdtempSync(join(tmpdir(), 'bench-'));
const progress = (line: string): void => void process.stderr.write(`[bench] ${line}\n`);

const benchBundles = async (): Promise<Row[]> => {
  const rows: Row[] = [section('Lambda bundles (esbuild as AppFunction: esm, node22, minified, AWS SDK inside)')];
  progress('reading each function\'s grants (bin/app.ts synthesized without bundling)');
  let grants: Map<string, Grants> | Error;
  try {
    grants = await functionGrants(join(workDir, 'cdk.out'));
  } catch (error) {
    grants = error as Error;
    rows.push(errorRow('grants from the CDK app (for the SDK client check)', error));
  }
  for (const fn of allFunctions()) rows.push(...(await benchBundle(fn, grants)));
  rows.push(...(await benchPowertools()));
  return rows;
};

/** Powertools' price, before/after in one run: a CRUD and a heavy function bundled with and without it. */
const benchPowertools = async (): Promise<Row[]> => {
  const rows: Row[] = [section('Powertools (Logger, Metrics, Tracer): the same bundle with and without it (stubbed out)')];
  for (const fn of allFunctions().filter((f) => f.name === 'get-me' || f.name === 'billing-checkout')) {
    progress(`bundling ${fn.handler} with and without Powertools`);
    try {
      const [withIt, without] = [
        await bundleFunction(fn, join(workDir, 'powertools-with')),
        await bundleFunction(fn, join(workDir, 'powertools-without'), withoutPowertools),
      ];
      const [withImport, withoutImport] = [
        (await coldImportMedian(withIt.file, COLD_IMPORT_RUNS)).median,
        (await coldImportMedian(without.file, COLD_IMPORT_RUNS)).median,
      ];
      rows.push(
        row(`${fn.name} bundle without / with Powertools`, `${kb(without.bytes)} / ${kb(withIt.bytes)} (+${kb(withIt.bytes - without.bytes)})`, `<= ${kb(bundleBudget[fn.profile])}`, withIt.bytes <= bundleBudget[fn.profile]),
        row(`${fn.name} cold import without / with Powertools (medians of ${COLD_IMPORT_RUNS})`, `${ms(withoutImport)} / ${ms(withImport)} (+${ms(withImport - withoutImport)})`, `<= ${COLD_IMPORT_BUDGET_MS} ms`, withImport <= COLD_IMPORT_BUDGET_MS),
      );
    } catch (error) {
      rows.push(errorRow(`${fn.name} with and without Powertools`, error));
    }
  }
  return rows;
};

const sdkRow = (fn: FunctionEntry, bundle: Bundle, grants: Map<string, Grants> | Error): Row => {
  const metric = `${fn.name} SDK clients`;
  const listed = bundle.sdkClients.map((c) => `${c.name.replace('@aws-sdk/', '')} ${kb(c.bytes)}`).join(', ') || 'none';
  const granted = grants instanceof Error ? undefined : grants.get(fn.handler);
  if (!granted) return row(metric, `${listed} (not in the synthesized CDK app: no grants to compare)`);
  const { unneeded, grantedUnused } = checkClients(
    bundle.sdkClients.map((c) => c.name),
    granted,
  );
  const notes = [
    unneeded.length ? `not granted: ${unneeded.map((c) => c.replace('@aws-sdk/', '')).join(', ')}` : '',
    grantedUnused.length ? `granted, no client: ${grantedUnused.join(', ')}` : '',
  ].filter(Boolean);
  return row(metric, `${listed}${notes.length ? ` (${notes.join('; ')})` : ''}`, 'only granted services', unneeded.length === 0);
};

const benchBundle = async (fn: FunctionEntry, grants: Map<string, Grants> | Error): Promise<Row[]> => {
  progress(`bundling ${fn.handler}`);
  let bundle: Bundle;
  try {
    bundle = await bundleFunction(fn, join(workDir, 'bundles'));
  } catch (error) {
    return [errorRow(`${fn.name} bundle`, error)];
  }
  const budget = bundleBudget[fn.profile];
  const sizeRow = row(`${fn.name} bundle (functions/${fn.handler}.ts)`, kb(bundle.bytes), `<= ${kb(budget)} (${fn.profile})`, bundle.bytes <= budget);
  let importRow: Row;
  try {
    const { median } = await coldImportMedian(bundle.file, COLD_IMPORT_RUNS);
    importRow = row(`${fn.name} cold import (median of ${COLD_IMPORT_RUNS})`, ms(median), `<= ${COLD_IMPORT_BUDGET_MS} ms`, median <= COLD_IMPORT_BUDGET_MS);
  } catch (error) {
    importRow = errorRow(`${fn.name} cold import`, error);
  }
  return [sizeRow, importRow, sdkRow(fn, bundle, grants)];
};

/** The sizes of the SPA, and whether web/dist now holds this tree's build (what the browser part serves). */
const benchSpa = async (): Promise<{ rows: Row[]; built: boolean }> => {
  const rows: Row[] = [section('SPA (vite build, gzip -6)')];
  progress('building the web app (npm run build -w web)');
  let built = false;
  try {
    const started = performance.now();
    await buildWeb();
    built = true;
    rows.push(row('web build time', `${((performance.now() - started) / 1000).toFixed(1)} s`));
    const sizes = spaSizes();
    const initial = sizes.initialJs.reduce((sum, a) => sum + a.gzipBytes, 0);
    const css = sizes.css.reduce((sum, a) => sum + a.gzipBytes, 0);
    rows.push(
      row(`initial JS gzip (entry + ${sizes.initialJs.length - 1} modulepreload)`, kb(initial), `<= ${kb(INITIAL_JS_BUDGET)}`, initial <= INITIAL_JS_BUDGET),
      row(`CSS gzip (${sizes.css.length} file${sizes.css.length === 1 ? '' : 's'})`, kb(css), `<= ${kb(CSS_BUDGET)}`, css <= CSS_BUDGET),
      row(
        `largest lazy chunks (${sizes.lazyJs.length} in all)`,
        sizes.lazyJs.slice(0, 3).map((a) => `${chunkName(a.file)} ${kb(a.gzipBytes)}`).join(', ') || 'none',
      ),
    );
  } catch (error) {
    rows.push(errorRow('web build / initial JS', error));
  }
  return { rows, built };
};

/** `assets/account-screen-B9KpO1bf.js` -> `account-screen`. */
const chunkName = (file: string): string => file.replace(/^assets\//, '').replace(/-[\w-]{8}\.js$/, '');

/** Held as a promise so a signal during start-up still stops what the start brings up. */
let cloud: Promise<LocalCloud> | undefined;
let stopGateway: (() => Promise<void>) | undefined;

const stopEverything = async (): Promise<void> => {
  await stopGateway?.().catch(() => undefined);
  stopGateway = undefined;
  const starting = cloud;
  cloud = undefined;
  await starting?.then((c) => c.stop()).catch(() => undefined);
};

/**
 * Everything that needs the local cloud, on one cloud: first the browser (before the load tests, so Chromium does
 * not share the machine with their aftermath), then the API latencies, last the CRM at 10 and 10,000 learners and the
 * admin stats at a fresh platform and 100,000 users (their seeding writes come after the write floor, not before).
 */
const benchOnCloud = async (spaBuilt: boolean): Promise<Row[]> => {
  const feel: Row[] = [section(webVitalsSection)];
  const rows: Row[] = [section('GET /api/me on the local gateway (route throttles lifted) vs raw DynamoDB Local GetItem')];
  try {
    // Imported here, not at the top: a local cloud that does not load is one error row, not a crashed bench.
    const { startLocalCloud } = await import('#lib/local/cloud.ts');
    const api = await import('./api-latency.ts');
    progress('starting the local cloud (DynamoDB Local, cognito-local, gateway; seeded)');
    cloud = startLocalCloud({ dataDir: join(workDir, 'local'), ports: 'auto', web: false, seed: true, log: () => undefined });
    const local = await cloud;
    if (spaBuilt) {
      progress('LCP and TBT in Chromium: the built SPA, the CPU slowed 4x');
      feel.push(...(await benchWebVitals({ outputs: local.outputs, distDir: webDist, progress })));
    } else feel.push(errorRow('LCP / TBT in Chromium', 'the web build failed: no SPA to serve'));
    const gateway = await api.startUnthrottledGateway(local);
    stopGateway = gateway.stop;
    rows.push(...(await benchMe(local, gateway.url)));
    const { benchMoneyRoutes } = await import('./money-routes.ts');
    rows.push(...(await benchMoneyRoutes(local, gateway.url, progress)));
    const { benchCrm, crmSection } = await import('./crm.ts');
    rows.push(section(crmSection), ...(await benchCrm(local, gateway.url, progress)));
    const { benchLeaderReport, leaderReportSection } = await import('./leader-report.ts');
    rows.push(section(leaderReportSection), ...(await benchLeaderReport(local, gateway.url, progress)));
    const { benchAdminStats, adminStatsSection } = await import('./admin-stats.ts');
    rows.push(section(adminStatsSection), ...(await benchAdminStats(local, gateway.url, progress)));
    const { benchCreatorAnalytics, creatorAnalyticsSection } = await import('./creator-analytics.ts');
    rows.push(section(creatorAnalyticsSection), ...(await benchCreatorAnalytics(local, gateway.url, progress)));
    const { benchCourseReport, courseReportSection } = await import('./course-report.ts');
    rows.push(section(courseReportSection), ...(await benchCourseReport(local, gateway.url, progress)));
    const { benchPublicApi, publicApiSection } = await import('./public-api.ts');
    rows.push(section(publicApiSection), ...(await benchPublicApi(local, gateway.url, progress)));
    const { benchAiTools, aiToolsSection } = await import('./ai-tools.ts');
    rows.push(section(aiToolsSection), ...(await benchAiTools(local, gateway.url, progress)));
    const { benchDiscussions, discussionsSection } = await import('./discussions.ts');
    rows.push(section(discussionsSection), ...(await benchDiscussions(local, gateway.url, progress)));
  } catch (error) {
    if (feel.length === 1) feel.push(errorRow('LCP / TBT in Chromium', error));
    rows.push(errorRow('local cloud latency', error));
  } finally {
    // Requests the gateway still holds when the load stops fail as DynamoDB goes away: not worth a log line.
    process.env.LOG_LEVEL = 'silent';
    resetConfig();
    progress('stopping the local cloud');
    await stopEverything();
  }
  return [...feel, ...rows];
};

/** GET /api/me against its floor. A failure is an error row: the money routes after it still run. */
const benchMe = async (local: LocalCloud, gatewayUrl: string): Promise<Row[]> => {
  try {
    const api = await import('./api-latency.ts');
    const { gateway: load, floor, single } = await api.measureApi(local, gatewayUrl, progress);
    const [p50Ratio, p99Ratio] = [load.p50 / floor.p50, load.p99 / floor.p99];
    const codes = non2xxCodes(load.statusCodes);
    const n = api.CONNECTIONS;
    return [
      row(`gateway p50 (${n} connections, throttle lifted)`, ms(load.p50)),
      row('gateway p99', ms(load.p99)),
      row('gateway throughput', `${load.requestsPerSecond.toFixed(0)} req/s`),
      row('gateway non-2xx / errors (incl. timeouts)', `${load.non2xx}${codes ? ` (${codes})` : ''} / ${load.errors}`, '0 / 0', load.non2xx === 0 && load.errors === 0),
      row(`GetItem floor p50 (${n} in flight)`, ms(floor.p50)),
      row('GetItem floor p99', ms(floor.p99)),
      row('GetItem floor throughput / errors', `${floor.requestsPerSecond.toFixed(0)} req/s / ${floor.errors}`, '0 errors', floor.errors === 0),
      row('GetItem p50 / p99, 1 in flight (no queueing)', `${ms(single.p50)} / ${ms(single.p99)}`),
      row('ratio gateway p50 / GetItem floor p50', `${p50Ratio.toFixed(2)}x`, `<= ${FLOOR_P50_RATIO}x`, p50Ratio <= FLOOR_P50_RATIO),
      row('ratio gateway p99 / GetItem floor p99', `${p99Ratio.toFixed(2)}x`, `<= ${FLOOR_P99_RATIO}x`, p99Ratio <= FLOOR_P99_RATIO),
    ];
  } catch (error) {
    return [errorRow('GET /api/me latency', error)];
  }
};

stopOnSignals(progress, () => stopEverything().finally(() => rmSync(workDir, { recursive: true, force: true })));

const started = performance.now();
try {
  // The SPA is built before the local cloud starts: the browser part serves that build.
  const bundles = await benchBundles();
  progress('sanitizing a 200 KB landing page');
  const sanitizer = [section('Landing-page sanitizer (functions/adapters/html-sanitizer.ts, in this process)'), benchSanitizer()];
  const spa = await benchSpa();
  const onCloud = await benchOnCloud(spa.built);
  // After the latency part's cloud is gone: the fault suite starts its own, with faults on.
  const { benchFaults, faultsSection } = await import('./faults.ts');
  const faults = [section(faultsSection), ...(await benchFaults(progress))];
  const rows = [...bundles, ...sanitizer, ...spa.rows, ...onCloud, ...faults];
  const cpu = cpus();
  const header =
    `bench ${new Date().toISOString()} · node ${process.version} · ${cpu.length} CPU${cpu.length === 1 ? '' : 's'} ` +
    `(${cpu[0]?.model.trim() ?? 'unknown'}) · load ${loadavg()[0]!.toFixed(2)} · ${((performance.now() - started) / 1000).toFixed(0)} s`;
  process.stdout.write(`\n${header}\n${formatTable(rows)}\n`);
} finally {
  await stopEverything();
  rmSync(workDir, { recursive: true, force: true });
}
