/**
 * How every Lambda is bundled: `bundleFunction`, which lib/constructs/app-function.ts runs for each function as CDK
 * synthesizes (through bin/bundle-function.ts) and the bench (test/bench/bundles.ts) runs as it measures, so the bench
 * measures what ships. No aws-cdk-lib here: the bench imports this cheaply.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { build, type Metafile, type Plugin } from 'esbuild';
import { isKeyAccess, routes } from '#functions/routes.ts';
import { describeRoute } from '#middleware/handler-route.ts';

/** The repository root: functions/ and node_modules/. */
const repoRoot = path.resolve(import.meta.dirname, '..', '..');

/**
 * The Node.js major version of the functions in Lambda. Everything local runs on the same major: the project brings
 * it as the pinned `node` devDependency, which `npm run` puts first on the PATH (docs/decisions/0011-node-22.md).
 */
export const NODE_MAJOR = 22;

/** esbuild's target for that runtime. */
export const bundleTarget = `node${NODE_MAJOR}`;

/** CommonJS dependencies bundled into ESM still call require() for Node built-ins. */
export const esmRequireBanner = "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

/**
 * Module aliases, relative to the repository root. In Lambda the execution role's credentials are always in the
 * environment: the SDK's default credential chain becomes the environment provider alone (functions/adapters/
 * lambda-credentials.ts), ~135 KB less in every bundle that holds an AWS SDK client. No function reads or writes an
 * event stream (functions/adapters/no-event-streams.ts), ~10-15 KB. The SDK's endpoint cache needs five methods of an
 * LRU cache (functions/adapters/endpoint-lru.ts), ~7 KB.
 */
export const bundleAliases: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': './functions/adapters/lambda-credentials.ts',
  '@smithy/core/event-streams': './functions/adapters/no-event-streams.ts',
  'mnemonist/lru-cache': './functions/adapters/endpoint-lru.ts',
};

/** What a module left out of the bundles throws if it is ever reached, naming what and where. */
const notBundled = (what: string): string => `${what} is not bundled into these functions (lib/constructs/bundling.ts)`;

/**
 * An AWS SDK client's schema modules (`dist-es/schemas/schemas_<n>.js`) with each computed key written as the string
 * it stands for. Every operation's schema holds an object such as `{ [_h]: ["POST", "/v2/email/outbound-emails"] }`,
 * `_h` a module constant: esbuild must assume a computed key may run code, so it kept every operation's schema of a
 * client in each bundle that uses one of them (SESv2's: 48 KB to send one email; S3's: 66 KB). With literal keys the
 * schemas no function references are dropped. The objects are the same (test/lib/constructs/bundling.test.ts).
 */
const sdkSchemaKeys: Plugin = {
  name: 'sdk-schema-keys',
  setup(b) {
    b.onLoad({ filter: /[\\/]@aws-sdk[\\/]client-[a-z0-9-]+[\\/]dist-es[\\/]schemas[\\/]schemas_\d+\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const strings = new Map<string, string>();
      for (const [, name, value] of source.matchAll(/^const (_\w+) = ("[^"\\]*");$/gm)) strings.set(name!, value!);
      const contents = source.replace(/\[(_\w+)\]:/g, (key, name: string) => (strings.has(name) ? `${strings.get(name)}:` : key));
      return { contents, loader: 'js' };
    });
  },
};

/**
 * zod without its JSON Schema generation (`toJSONSchema`, the schemas' `~standard.jsonSchema`), ~18 KB of every
 * bundle: the functions validate with zod and never describe a schema as JSON Schema. zod imports the two modules by
 * relative path (no alias can reach them): each becomes a module of the same exports that throw when called, named
 * from the real module so a new zod export is stubbed too; `create*Method` make the methods, called as a schema is
 * read, so they return a method that throws.
 */
const zodWithoutJsonSchema: Plugin = {
  name: 'zod-without-json-schema',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\/(core\/)?(json-schema-processors|to-json-schema)\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: path.resolve(args.resolveDir, args.path), namespace: 'zod-without-json-schema' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-without-json-schema' }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const names = new Set<string>();
      for (const [, list] of source.matchAll(/^export \{([^}]*)\}/gm))
        for (const item of list!.split(',')) names.add(item.trim().split(/\s+as\s+/).pop()!);
      for (const [, name] of source.matchAll(/^export (?:const|function|class) (\w+)/gm)) names.add(name!);
      const stub = (name: string) => (/^create\w+Method$/.test(name) ? '() => unbundled' : 'unbundled');
      const contents = [
        `const unbundled = () => { throw new Error(${JSON.stringify(notBundled(`zod's JSON Schema (${path.basename(args.path)})`))}); };`,
        ...[...names].filter(Boolean).map((name) => `export const ${name} = ${stub(name)};`),
      ].join('\n');
      return { contents, loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

/**
 * A dependency's package.json as its code reads it: the name and version (the SDK clients' user agent, X-Ray's
 * segment metadata). esbuild bundles the whole file for a default import: 1-3 KB each.
 */
const packageNameAndVersion: Plugin = {
  name: 'package-name-and-version',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/].*[\\/]package\.json$/ }, async (args) => {
      const { name, version } = JSON.parse(await readFile(args.path, 'utf8')) as { name?: string; version?: string };
      return { contents: JSON.stringify({ name, version }), loader: 'json' };
    });
  },
};

/**
 * The operations functions/ sends: each `<Operation>Command` it imports from the AWS SDK (lib-dynamodb's `GetCommand`
 * stands for GetItem). Read once per process: the bench builds every function in one.
 */
let operationsRead: Promise<Set<string>> | undefined;
const operationsSent = (): Promise<Set<string>> => (operationsRead ??= readOperationsSent());
const readOperationsSent = async (): Promise<Set<string>> => {
  const operations = new Set<string>();
  const files = (await readdir(path.join(repoRoot, 'functions'), { recursive: true })).filter((f) => f.endsWith('.ts'));
  for (const file of files) {
    for (const [, list] of (await readFile(path.join(repoRoot, 'functions', file), 'utf8')).matchAll(/import\s*\{([^}]*)\}\s*from\s*'@aws-sdk\/[^']+'/g)) {
      for (const item of list!.split(',')) {
        const name = item.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!;
        if (!name.endsWith('Command')) continue;
        const operation = name.charAt(0).toLowerCase() + name.slice(1, -'Command'.length);
        operations.add(operation).add(`${operation}Item`);
      }
    }
  }
  return operations;
};

/** X-Ray's modules its Lambda mode never reaches as Powertools' Tracer uses it, by path under aws-xray-sdk-core/dist/lib/. */
const xrayUnreached: Readonly<Record<string, string>> = {
  // Centralized sampling: in Lambda the SDK switches to its local sampler as it loads (env/aws_lambda.js), and the
  // invocation's trace header decides; the default sampler's pollers and rule cache never run.
  'middleware/sampling/default_sampler.js': "module.exports = require('./local_sampler');",
  // The EC2, ECS and Elastic Beanstalk metadata plugins, which an application turns on by AWSXRay.config().
  'segments/plugins/ec2_plugin.js': 'module.exports = { getData: unreached };',
  'segments/plugins/ecs_plugin.js': 'module.exports = { getData: unreached };',
  'segments/plugins/elastic_beanstalk_plugin.js': 'module.exports = { getData: unreached };',
  // The AWS SDK v2 patcher (and with it `semver`): the functions trace SDK v3 clients (captureAWSv3Client).
  'patchers/aws_p.js': 'module.exports = { captureAWS: unreached, captureAWSClient: unreached };',
  // Promise patching, which an application turns on itself.
  'patchers/promise_p.js': 'module.exports = { capturePromise: unreached };',
};

/**
 * X-Ray's SDK (under Powertools' Tracer) as a function in Lambda uses it, ~25 KB less in every bundle: the modules of
 * `xrayUnreached` become small ones that throw if ever called, naming this file, and the whitelist of the request and
 * response parameters it records (`aws_whitelist.json`, ~10 KB of some 80 operations) keeps the operations functions/
 * sends, so a DynamoDB subsegment still names its table (test/lib/constructs/bundle-tracing.test.ts).
 */
const xrayAsLambdaUsesIt: Plugin = {
  name: 'xray-as-lambda-uses-it',
  setup(b) {
    const lib = path.join(repoRoot, 'node_modules', 'aws-xray-sdk-core', 'dist', 'lib');
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      if (!args.importer.startsWith(lib)) return undefined;
      const resolved = path.resolve(args.resolveDir, args.path.endsWith('.js') ? args.path : `${args.path}.js`);
      const relative = path.relative(lib, resolved).split(path.sep).join('/');
      return relative in xrayUnreached ? { path: resolved, namespace: 'xray-unreached', pluginData: relative } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'xray-unreached' }, (args) => ({
      contents: [
        `const unreached = () => { throw new Error(${JSON.stringify(notBundled(`X-Ray's ${args.pluginData as string}`))}); };`,
        xrayUnreached[args.pluginData as string]!,
      ].join('\n'),
      loader: 'js',
      resolveDir: path.dirname(args.path),
    }));
    b.onLoad({ filter: /[\\/]aws-xray-sdk-core[\\/]dist[\\/]lib[\\/]resources[\\/]aws_whitelist\.json$/ }, async (args) => {
      type Whitelist = { services: Record<string, { operations: Record<string, unknown> }> };
      const { services } = JSON.parse(await readFile(args.path, 'utf8')) as Whitelist;
      const sent = await operationsSent();
      const kept: Whitelist['services'] = {};
      for (const [service, { operations }] of Object.entries(services)) {
        const ours = Object.entries(operations).filter(([operation]) => sent.has(operation));
        if (ours.length > 0) kept[service] = { operations: Object.fromEntries(ours) };
      }
      return { contents: JSON.stringify({ services: kept }), loader: 'json' };
    });
  },
};

/**
 * The AWS SDK's hashes in JavaScript (SHA-256, SHA-1, MD5: ~7.5 KB with S3, SHA-256's 3.3 KB in every bundle), which
 * its Node classes fall back to only when Node's crypto lacks the algorithm (a FIPS-only OpenSSL without MD5). Lambda's
 * Node.js 22 has them all: each becomes a class that throws, naming this file, should it ever be made.
 */
const nodeCryptoHashes: Plugin = {
  name: 'node-crypto-hashes',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\/(.*\/)?(Sha256Js|Sha1Js|Md5Js)$/ }, (args) =>
      /[\\/]node_modules[\\/](@smithy[\\/]core|@aws-sdk[\\/]checksums)[\\/]/.test(args.importer)
        ? { path: path.resolve(args.resolveDir, args.path), namespace: 'node-crypto-hashes', pluginData: path.basename(args.path) }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'node-crypto-hashes' }, (args) => {
      const name = args.pluginData as string;
      const message = notBundled(`The AWS SDK's ${name} (a hash in JavaScript; Node's crypto has the algorithm)`);
      return { contents: `export class ${name} { constructor() { throw new Error(${JSON.stringify(message)}); } }`, loader: 'js' };
    });
  },
};

/** The plugins of every bundle; `jsonSchema`: keep zod's JSON Schema generator (the OpenAPI function, `jsonSchema` in routes.ts). */
export const bundlePlugins = (options: { jsonSchema?: boolean } = {}): Plugin[] =>
  [sdkSchemaKeys, ...(options.jsonSchema ? [] : [zodWithoutJsonSchema]), packageNameAndVersion, xrayAsLambdaUsesIt, nodeCryptoHashes];

/** The specifier functions/middleware/http-route.ts imports the stored-account check by: public routes alias it away. */
export const accountSpecifier = '#middleware/account.ts';

/** The specifier functions/middleware/http-route.ts imports the API key check by: every route but /v1's aliases it away. */
export const apiKeySpecifier = '#middleware/api-key.ts';

/** The specifier functions/middleware/http-route.ts imports its route by: each bundle aliases it to its own module. */
export const handlerRouteSpecifier = '#middleware/handler-route.ts';

/**
 * The module that stands for functions/middleware/handler-route.ts in the bundle of the function `functionName`: its
 * own route alone, resolved by the same `describeRoute` as from source, so the route table (~15 KB minified) is in no
 * bundle. A handler that declares another route, or a function that is no route (a job, a trigger) and still makes an
 * HTTP handler, throws as its module loads (docs/decisions/0022-route-table-out-of-bundles.md).
 */
export const handlerRouteModule = (functionName: string): string => {
  const route = routes.find((r) => r.name === functionName);
  const carries = route ? `the route ${route.name}` : 'no route';
  return [
    `// Generated by lib/constructs/bundling.ts for the function ${JSON.stringify(functionName)}: it replaces functions/middleware/handler-route.ts.`,
    `const route = ${JSON.stringify(route ? describeRoute(route) : null)};`,
    'export const handlerRoute = (name) => {',
    '  if (route !== null && name === route.name) return route;',
    `  throw new Error(${JSON.stringify(`This bundle of ${functionName} carries ${carries}, but its handler declares the route `)} + JSON.stringify(name));`,
    '};',
    '',
  ].join('\n');
};

/**
 * The aliases of one function's bundle: `bundleAliases`, and `handlerRouteSpecifier` to its `handlerRouteModule`,
 * written into `dir` (a directory of the build's own: CDK's cloud assembly, the bench's output directory). Both
 * builds call this, so they bundle the same module. A stable `dir` keeps the bundle (its source map) the same from one
 * build to the next.
 */
export const functionBundleAliases = (functionName: string, dir: string): Record<string, string> => {
  const file = path.resolve(dir, `${functionName}.route.mjs`);
  const source = handlerRouteModule(functionName);
  if (!existsSync(file) || readFileSync(file, 'utf8') !== source) {
    mkdirSync(path.dirname(file), { recursive: true });
    // Written aside and renamed: a build reading the file never sees it half written.
    writeFileSync(`${file}.${process.pid}.tmp`, source);
    renameSync(`${file}.${process.pid}.tmp`, file);
  }
  // A public route checks no stored account (functions/middleware/account-public.ts): no DynamoDB client for it.
  const access = routes.find((r) => r.name === functionName)?.access;
  const isPublic = access === 'public';
  // Only a /v1 route checks an API key (functions/middleware/api-key-none.ts): no other bundle carries the keys' module.
  const isKey = access !== undefined && isKeyAccess(access);
  return {
    ...bundleAliases,
    [handlerRouteSpecifier]: file,
    ...(isPublic ? { [accountSpecifier]: './functions/middleware/account-public.ts' } : {}),
    ...(isKey ? {} : { [apiKeySpecifier]: './functions/middleware/api-key-none.ts' }),
  };
};

export interface FunctionBundleInput {
  /** The function's name (route, trigger, event handler or job): its route module. */
  name: string;
  /** Module under functions/ without extension, exporting `handler`. */
  handler: string;
  /** The bundle to write (`index.mjs`, its source map beside it). */
  outfile: string;
  /** Where its route module goes (`functionBundleAliases`). */
  routeModulesDir: string;
  /** More aliases: the bench's variant without Powertools. */
  extraAliases?: Record<string, string>;
}

/**
 * Bundles functions/<handler>.ts into `outfile`: ESM for Node.js 22, minified, everything inside (AWS SDK v3 included:
 * a pinned, tree-shaken SDK loads faster than the runtime's full copy), the aliases and plugins above, the source map
 * in its own file (`bytes` of the bundle is the code Node parses on a cold start). Answers esbuild's metafile.
 */
export const bundleFunction = async (input: FunctionBundleInput): Promise<Metafile> => {
  const result = await build({
    entryPoints: [path.join(repoRoot, 'functions', `${input.handler}.ts`)],
    absWorkingDir: repoRoot,
    outfile: input.outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: bundleTarget,
    mainFields: ['module', 'main'],
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    external: [],
    alias: { ...functionBundleAliases(input.name, input.routeModulesDir), ...input.extraAliases },
    plugins: bundlePlugins({ jsonSchema: routes.find((r) => r.name === input.name)?.jsonSchema === true }),
    banner: { js: esmRequireBanner },
    metafile: true,
    logLevel: 'silent',
  });
  return result.metafile;
};
