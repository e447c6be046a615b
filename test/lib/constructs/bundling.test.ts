import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import { AttributeType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { errorBody } from '#contracts/common.ts';
import { jobs, routes, triggers, type RouteName } from '#functions/routes.ts';
import { AppFunction } from '#lib/constructs/app-function.ts';
import { functionBundleAliases, handlerRouteSpecifier } from '#lib/constructs/bundling.ts';
import { handlerRoute as handlerRouteFromSource } from '#middleware/handler-route.ts';
import type { HttpEvent, HttpResult } from '#middleware/http-route.ts';
import { bundleFunction } from '#test/bench/bundles.ts';
import { apiEvent, lambdaContext } from '#test/functions/http-event.ts';

type HandlerRouteModule = { handlerRoute: typeof handlerRouteFromSource };
type HandlerModule = { handler: (event: HttpEvent, context: typeof lambdaContext) => Promise<HttpResult> };

const importFile = async <T>(file: string): Promise<T> => (await import(pathToFileURL(file).href)) as T;
const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'route-bundles-'));
afterAll(() => fs.rmSync(outDir, { recursive: true, force: true }));

describe('the route module each bundle carries instead of the route table', () => {
  it('resolves every route exactly as functions/middleware/handler-route.ts does from source', async () => {
    for (const route of routes) {
      const aliases = functionBundleAliases(route.name, path.join(outDir, 'modules'));
      const bundled = await importFile<HandlerRouteModule>(aliases[handlerRouteSpecifier]!);
      const name = route.name as RouteName;
      expect(bundled.handlerRoute(name)).toEqual(handlerRouteFromSource(name));
    }
  });

  it('refuses any route in the bundle of a job or a trigger, which carries none', async () => {
    for (const fn of [jobs[0], triggers.preSignUp]) {
      const aliases = functionBundleAliases(fn.name, path.join(outDir, 'modules'));
      const bundled = await importFile<HandlerRouteModule>(aliases[handlerRouteSpecifier]!);
      expect(() => bundled.handlerRoute('get-me')).toThrow(`This bundle of ${fn.name} carries no route`);
    }
  });
});

describe("a route's bundle", () => {
  const leaderSettings = routes.find((r) => r.name === 'leader-settings')!;
  const key = `${leaderSettings.method} ${leaderSettings.path}`;
  let source: string;
  let bundled: HandlerModule;
  let fromSource: HandlerModule;

  beforeAll(async () => {
    // What the handlers read as they load and answer (the unit project's environment; the infra project sets none).
    vi.stubEnv('LOG_LEVEL', 'silent');
    vi.stubEnv('TABLE_NAME', 'bundle-test-table');
    vi.stubEnv('AWS_REGION', 'eu-west-2');
    const bundle = await bundleFunction({ name: leaderSettings.name, handler: leaderSettings.handler, profile: 'crud' }, outDir);
    source = fs.readFileSync(bundle.file, 'utf8');
    bundled = await importFile<HandlerModule>(bundle.file);
    fromSource = (await import('#functions/http/leader-settings.ts')) as HandlerModule;
  }, 120_000);

  afterAll(() => vi.unstubAllEnvs());

  it("carries its own route and not another route's path", () => {
    expect(source).toContain(JSON.stringify(key));
    expect(source).not.toContain('/api/billing/checkout');
    const others = routes.filter((r) => !leaderSettings.path.startsWith(r.path));
    expect(others.filter((r) => source.includes(r.path)).map((r) => r.path)).toEqual([]);
  });

  it("is byte for byte what CDK's NodejsFunction ships (the esbuild CLI with the same aliases)", () => {
    const app = new App({ outdir: path.join(outDir, 'cdk.out'), builtinCloudFormationValidation: false });
    const stack = new Stack(app, 'Bundle');
    const table = new Table(stack, 'Table', { partitionKey: { name: 'pk', type: AttributeType.STRING } });
    new AppFunction(stack, 'LeaderSettings', { name: leaderSettings.name, handler: leaderSettings.handler, platform: { table } });
    const assembly = app.synth();
    const [shipped] = fs
      .readdirSync(assembly.directory)
      .map((entry) => path.join(assembly.directory, entry, 'index.mjs'))
      .filter((file) => fs.existsSync(file));
    expect(fs.readFileSync(shipped!, 'utf8')).toBe(source);
    // Its route module is in the cloud assembly, named relative to it in the source map: the asset hash is stable.
    const { sources } = JSON.parse(fs.readFileSync(`${shipped}.map`, 'utf8')) as { sources: string[] };
    expect(sources).toContain('../route-modules/leader-settings.route.mjs');
    expect(sources.filter((s) => s.endsWith('functions/routes.ts') || s.endsWith('functions/middleware/handler-route.ts'))).toEqual([]);
  }, 120_000);

  it('answers 401 UNAUTHENTICATED with the contract body to a request without a token, as from source', async () => {
    const event = () => apiEvent({ routeKey: key });
    const res = await bundled.handler(event(), lambdaContext);
    expect(res.statusCode).toBe(401);
    expect(errorBody.parse(JSON.parse(res.body!)).error.code).toBe('UNAUTHENTICATED');
    expect(res).toEqual(await fromSource.handler(event(), lambdaContext));
  });

  it("answers 403 FORBIDDEN with the contract body to a caller from a group the route does not admit, as from source", async () => {
    const event = () => apiEvent({ routeKey: key, sub: 'creator-1', groups: ['creator'] });
    const res = await bundled.handler(event(), lambdaContext);
    expect(res.statusCode).toBe(403);
    expect(errorBody.parse(JSON.parse(res.body!)).error.code).toBe('FORBIDDEN');
    expect(res).toEqual(await fromSource.handler(event(), lambdaContext));
  });

  it('refuses, 403, an event for another route than its own', async () => {
    const res = await bundled.handler(apiEvent({ routeKey: 'GET /api/me', sub: 'leader-1', groups: ['leader'] }), lambdaContext);
    expect(res.statusCode).toBe(403);
  });

  it('fails at cold start when its handler declares another route than the one it was built for', async () => {
    const bundle = await bundleFunction({ name: 'get-me', handler: leaderSettings.handler, profile: 'crud' }, path.join(outDir, 'mismatch'));
    await expect(importFile(bundle.file)).rejects.toThrow('This bundle of get-me carries the route get-me, but its handler declares the route "leader-settings"');
  }, 120_000);
});
