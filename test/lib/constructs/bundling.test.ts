import { createHash } from 'node:crypto';
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
import { build } from 'esbuild';
import { bundleAliases, bundlePlugins, functionBundleAliases, handlerRouteSpecifier } from '#lib/constructs/bundling.ts';
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

  it('is byte for byte what CDK ships (bin/bundle-function.ts, run as it synthesizes)', () => {
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

  it("a public route's bundle (the health check) checks no stored account, so it carries no DynamoDB client, and answers", async () => {
    const health = routes.find((r) => r.name === 'health')!;
    const bundle = await bundleFunction({ name: health.name, handler: health.handler, profile: 'crud' }, path.join(outDir, 'public'));
    const shippedSource = fs.readFileSync(bundle.file, 'utf8');
    expect(shippedSource).not.toContain('DynamoDBClient');
    const res = await (await importFile<HandlerModule>(bundle.file)).handler(apiEvent({ routeKey: 'GET /api/health' }), lambdaContext);
    expect(res.statusCode).toBe(200);
  }, 120_000);

  it('fails at cold start when its handler declares another route than the one it was built for', async () => {
    const bundle = await bundleFunction({ name: 'get-me', handler: leaderSettings.handler, profile: 'crud' }, path.join(outDir, 'mismatch'));
    await expect(importFile(bundle.file)).rejects.toThrow('This bundle of get-me carries the route get-me, but its handler declares the route "leader-settings"');
  }, 120_000);
});

/** Bundles `contents` (an ES module) as the functions are, or without the plugins and aliases; imports the bundle. */
const bundleAndImport = async <T>(name: string, contents: string, shipped: boolean): Promise<{ module: T; source: string }> => {
  const outfile = path.join(outDir, 'modules', `${name}-${shipped ? 'shipped' : 'plain'}.mjs`);
  const root = path.resolve(import.meta.dirname, '..', '..', '..');
  await build({
    stdin: { contents, resolveDir: root, loader: 'ts' },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    absWorkingDir: root,
    logLevel: 'silent',
    ...(shipped ? { plugins: bundlePlugins(), alias: { ...bundleAliases } } : {}),
  });
  return { module: await importFile<T>(outfile), source: fs.readFileSync(outfile, 'utf8') };
};

describe('what the bundles leave out, and what they keep', () => {
  const clients = Object.keys((JSON.parse(fs.readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> }).dependencies).filter((d) =>
    d.startsWith('@aws-sdk/client-'),
  );

  /** Each export of a schema module, its lazy references (`() => X$`) written as the name of what they return. */
  const described = (module: Record<string, unknown>) => {
    const names = new Map(Object.entries(module).map(([name, value]) => [value, name]));
    const norm = (value: unknown, depth = 0): unknown => {
      if (depth > 20) throw new Error('schema nesting deeper than expected');
      if (Array.isArray(value)) return value.map((v) => norm(v, depth + 1));
      if (typeof value === 'function') {
        if (value.prototype) return `class ${value.name}`;
        const target: unknown = (value as () => unknown)();
        return `-> ${names.get(target) ?? JSON.stringify(norm(target, depth + 1))}`;
      }
      if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, norm(v, depth + 1)]));
      return value;
    };
    return Object.fromEntries(Object.entries(module).map(([name, value]) => [name, norm(value)]));
  };

  it.each(clients)("%s: every operation's schema is the same with literal keys, and none is computed any more", async (client) => {
    const schemas = path.resolve('node_modules', client, 'dist-es', 'schemas', 'schemas_0.js');
    const entry = `export * from ${JSON.stringify(schemas)};`;
    const plain = await bundleAndImport<Record<string, unknown>>(`${client.replace('@aws-sdk/', '')}-schemas`, entry, false);
    const shipped = await bundleAndImport<Record<string, unknown>>(`${client.replace('@aws-sdk/', '')}-schemas`, entry, true);
    expect(Object.keys(shipped.module).length).toBeGreaterThan(10);
    expect(described(shipped.module)).toEqual(described(plain.module));
    expect(plain.source).toMatch(/\{ \[_\w+\]: /);
    expect(shipped.source).not.toMatch(/\{ \[_\w+\]: /);
  }, 60_000);

  it("validates with zod as from source, and says so if anything asks for zod's JSON Schema", async () => {
    type Probe = { parse: (body: unknown) => unknown; standard: (body: unknown) => unknown; jsonSchema: () => unknown };
    const entry = [
      "import { z } from 'zod';",
      "import { createCourseBody } from '#contracts/courses.ts';",
      'const fail = (f) => { try { return f(); } catch (e) { return e.issues ?? e.message; } };',
      'export const parse = (body) => fail(() => createCourseBody.parse(body));',
      "export const standard = (body) => createCourseBody['~standard'].validate(body);",
      'export const jsonSchema = () => fail(() => z.toJSONSchema(createCourseBody));',
    ].join('\n');
    const plain = (await bundleAndImport<Probe>('zod-probe', entry, false)).module;
    const shipped = (await bundleAndImport<Probe>('zod-probe', entry, true)).module;
    for (const body of [{ title: 'Knife skills' }, { title: '' }, { title: 7 }, {}, null]) {
      expect(shipped.parse(body)).toEqual(plain.parse(body));
      expect(shipped.standard(body)).toEqual(plain.standard(body));
    }
    expect(plain.jsonSchema()).toMatchObject({ type: 'object' });
    expect(shipped.jsonSchema()).toBe("zod's JSON Schema (json-schema-processors.js) is not bundled into these functions (lib/constructs/bundling.ts)");
  }, 60_000);

  it('builds the S3, Lambda and Bedrock clients without event streams, and names the missing piece if a stream is asked for', async () => {
    type Probe = { clients: () => string[]; stream: () => string[] };
    const entry = [
      "import { S3Client } from '@aws-sdk/client-s3';",
      "import { LambdaClient } from '@aws-sdk/client-lambda';",
      "import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';",
      "import { EventStreamSerde } from '@smithy/core/event-streams';",
      "const region = 'eu-west-2';",
      'export const clients = () => [new S3Client({ region }), new LambdaClient({ region }), new BedrockRuntimeClient({ region })].map((c) => typeof c.send);',
      'const message = (f) => { try { return f(); } catch (e) { return e.message; } };',
      'export const stream = () => [message(() => new EventStreamSerde({})), message(() => new S3Client({ region }).config.eventStreamMarshaller.serialize())];',
    ].join('\n');
    const { module, source } = await bundleAndImport<Probe>('event-streams-probe', entry, true);
    expect(module.clients()).toEqual(['function', 'function', 'function']);
    const missing = 'Event streams are not bundled into these functions (functions/adapters/no-event-streams.ts)';
    expect(module.stream()).toEqual([missing, missing]);
    expect(source).not.toContain('eventstream-codec');
  }, 60_000);

  it("hashes with Node's crypto, and names the JavaScript hashes left out should one ever be made", async () => {
    type Probe = { sha256: () => string; md5: () => string; jsHashes: () => string[] };
    const entry = [
      "import { Md5Node, Sha256Node } from '@smithy/core/checksum';",
      "import { Md5Js, Sha256Js } from '@smithy/core/checksum';",
      "const hex = (bytes) => Buffer.from(bytes).toString('hex');",
      "const digest = async (Hash) => { const h = new Hash(); h.update(new TextEncoder().encode('course files')); return hex(await h.digest()); };",
      'export const sha256 = () => digest(Sha256Node);',
      'export const md5 = () => digest(Md5Node);',
      'const message = (f) => { try { f(); return "made"; } catch (e) { return e.message; } };',
      'export const jsHashes = () => [message(() => new Sha256Js()), message(() => new Md5Js())];',
    ].join('\n');
    const { module } = await bundleAndImport<Probe>('hashes-probe', entry, true);
    expect(await module.sha256()).toBe(createHash('sha256').update('course files').digest('hex'));
    expect(await module.md5()).toBe(createHash('md5').update('course files').digest('hex'));
    expect(module.jsHashes()).toEqual(
      ['Sha256Js', 'Md5Js'].map((name) => `The AWS SDK's ${name} (a hash in JavaScript; Node's crypto has the algorithm) is not bundled into these functions (lib/constructs/bundling.ts)`),
    );
  }, 60_000);
});
