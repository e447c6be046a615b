// ESLint flat config: TypeScript rules everywhere, plus the import boundaries of ARCHITECTURE.md.
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import ts from 'typescript';
import tseslint from 'typescript-eslint';

const repoRoot = import.meta.dirname;

const sdkAndFrameworks = ['@aws-sdk/*', '@smithy/*', 'stripe', '@middy/*', 'aws-lambda'];
const zodNamespace = {
  selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z'][importKind!='type']",
  message: "Write `import * as z from 'zod'`: the named `z` import defeats tree-shaking (+350 KB per Lambda bundle).",
};
/** functions/ imports by package.json "imports" aliases only (#core/..., #data/...): one scheme, greppable, movable. */
const relativeImports = {
  group: ['./*', '../*'],
  message: "Inside functions/ import through the package.json aliases (#contracts/*, #core/*, #data/*, #adapters/*, #middleware/*, #functions/*), never by relative path. (Only contracts/, which the web app also imports, use './'.)",
};
const processEnv = {
  selector: "MemberExpression[object.name='process'][property.name='env']",
  message: 'Read the environment only in functions/config.ts (or web/src/lib/config.ts).',
};

/** Web features do not import each other: shared code goes to components/ or lib/, composition to app/. */
const featureBoundaries = {
  rules: {
    'no-cross-feature-imports': {
      meta: { type: 'problem', schema: [], messages: { cross: "Feature '{{from}}' must not import feature '{{to}}'." } },
      create(context) {
        const featuresDir = path.resolve('web/src/features');
        const featureOf = (file) => {
          const rel = path.relative(featuresDir, file);
          return rel.startsWith('..') || path.isAbsolute(rel) ? undefined : rel.split(path.sep)[0];
        };
        const from = featureOf(context.filename);
        if (!from) return {};
        const check = (node) => {
          const source = node.source?.value;
          if (typeof source !== 'string') return;
          const target = source.startsWith('@/')
            ? path.resolve('web/src', source.slice(2))
            : source.startsWith('.')
              ? path.resolve(path.dirname(context.filename), source)
              : undefined;
          const to = target && featureOf(target);
          if (to && to !== from) context.report({ node, messageId: 'cross', data: { from, to } });
        };
        return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
      },
    },
  },
};

/**
 * The path an import names in this repository (it may not exist yet): the package.json "imports" aliases (#core/*, ...)
 * outside web/, `@/` and `@contracts/` inside it (web/tsconfig.json), and relative paths. Packages and Node built-ins
 * answer undefined. `resolveImport`: the existing file it loads.
 */
const packageImports = Object.entries(JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')).imports ?? {});
const webDir = path.join(repoRoot, 'web') + path.sep;
const importTarget = (importer, specifier) => {
  let target;
  if (specifier.startsWith('.')) target = path.resolve(path.dirname(importer), specifier);
  else if (importer.startsWith(webDir)) {
    if (specifier.startsWith('@/')) target = path.join(webDir, 'src', specifier.slice(2));
    else if (specifier.startsWith('@contracts/')) target = path.join(repoRoot, 'functions/contracts', specifier.slice('@contracts/'.length));
  } else if (specifier.startsWith('#')) {
    for (const [alias, dir] of packageImports) {
      if (alias.endsWith('*') && specifier.startsWith(alias.slice(0, -1))) target = path.join(repoRoot, dir.slice(0, -1), specifier.slice(alias.length - 1));
    }
  }
  return target;
};
const resolveImport = (importer, specifier) => {
  const target = importTarget(importer, specifier);
  if (!target) return undefined;
  return [target, target.replace(/\.js$/, '.ts'), `${target}.ts`, `${target}.tsx`, path.join(target, 'index.ts')].find((f) => existsSync(f) && statSync(f).isFile());
};

/** The files each file imports statically (types too: a circle of types is still two modules that need each other). */
const importsOf = new Map();
const staticImports = (file) => {
  if (!importsOf.has(file)) {
    const targets = new Set();
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
    for (const statement of source.statements) {
      const specifier = (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && statement.moduleSpecifier;
      const target = specifier && ts.isStringLiteral(specifier) && resolveImport(file, specifier.text);
      if (target) targets.add(target);
    }
    importsOf.set(file, targets);
  }
  return importsOf.get(file);
};

/** The shortest way back from `from` to `to` along static imports, as the files passed, or undefined. */
const pathBack = (from, to) => {
  const cameFrom = new Map([[from, undefined]]);
  for (const queue = [from]; queue.length > 0; ) {
    const file = queue.shift();
    if (file === to) {
      const way = [];
      for (let at = file; at !== undefined; at = cameFrom.get(at)) way.unshift(at);
      return way;
    }
    for (const next of staticImports(file)) {
      if (!cameFrom.has(next)) {
        cameFrom.set(next, file);
        queue.push(next);
      }
    }
  }
  return undefined;
};

const sourceOf = (node) => (node.source?.type === 'Literal' ? node.source.value : undefined);

/**
 * The rooms of the house (docs/decisions/0029-rooms-match-the-domains.md):
 * - `no-import-cycles`: no module reaches itself again through static imports (types too).
 * - `core-rooms`: core's root modules (errors.ts, ports.ts, csv.ts, ...) are the floor every domain stands on: they
 *   import no domain folder. A domain's ports.ts imports only the root (and contracts). A domain imports another
 *   domain's use cases but never its ports.ts: a port two domains use is shared and lives in core/ports.ts.
 */
const rooms = {
  rules: {
    'no-import-cycles': {
      meta: { type: 'problem', schema: [], messages: { cycle: 'Import cycle: {{cycle}}. Move what both sides need into a module both import.' } },
      create(context) {
        const file = context.filename;
        if (!file.startsWith(repoRoot + path.sep)) return {};
        const check = (node) => {
          const source = sourceOf(node);
          const target = typeof source === 'string' && resolveImport(file, source);
          const back = target && pathBack(target, file);
          if (back) context.report({ node, messageId: 'cycle', data: { cycle: [file, ...back].map((f) => path.relative(repoRoot, f)).join(' -> ') } });
        };
        return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
      },
    },
    'core-rooms': {
      meta: {
        type: 'problem',
        schema: [],
        messages: {
          rootImportsDomain: "core's root modules are the floor every domain stands on: they import no domain folder ('{{to}}'). Move what both need to the root.",
          portsImportModule: "A domain's ports.ts imports only core's root modules and contracts, not '{{to}}'.",
          otherDomainPorts: "'{{from}}' must not import the ports of '{{to}}': a port two domains use is shared and lives in core/ports.ts.",
        },
      },
      create(context) {
        const coreDir = path.join(repoRoot, 'functions', 'core');
        const placeOf = (file) => {
          const rel = path.relative(coreDir, file);
          if (rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
          const parts = rel.split(path.sep);
          return { domain: parts.length > 1 ? parts[0] : undefined, isPorts: parts.length === 2 && parts[1] === 'ports.ts' };
        };
        const from = placeOf(context.filename);
        if (!from) return {};
        const check = (node) => {
          const source = sourceOf(node);
          const target = typeof source === 'string' && importTarget(context.filename, source);
          const to = target && placeOf(target.replace(/\.js$/, '.ts'));
          if (!to?.domain) return;
          if (!from.domain) context.report({ node, messageId: 'rootImportsDomain', data: { to: source } });
          else if (from.isPorts) context.report({ node, messageId: 'portsImportModule', data: { to: source } });
          else if (to.isPorts && to.domain !== from.domain) context.report({ node, messageId: 'otherDomainPorts', data: { from: from.domain, to: to.domain } });
        };
        return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
      },
    },
  },
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', 'cdk.out/**', 'web/dist/**', '.local/**', 'coverage/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': ['error', zodNamespace],
    },
  },
  {
    files: ['functions/**/*.ts', 'lib/**/*.ts', 'bin/**/*.ts', 'test/**/*.ts', 'web/src/**/*.{ts,tsx}', '*.ts'],
    plugins: { rooms },
    rules: { 'rooms/no-import-cycles': 'error' },
  },
  {
    files: ['functions/core/**/*.ts'],
    plugins: { rooms },
    rules: { 'rooms/core-rooms': 'error' },
  },
  {
    files: ['functions/**/*.ts'],
    ignores: ['functions/config.ts'],
    rules: { 'no-restricted-syntax': ['error', processEnv, zodNamespace] },
  },
  {
    files: ['functions/**/*.ts'],
    ignores: ['functions/contracts/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [relativeImports] }] },
  },
  {
    files: ['functions/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            relativeImports,
            { group: sdkAndFrameworks, message: 'core is pure: no SDKs or frameworks. Declare a port in core/<domain>/ports.ts (core/ports.ts if several domains use it).' },
            { group: ['**/data/*', '**/adapters/*', '**/middleware/*', '**/config.ts', '**/deps.ts', '**/composition/*', '\\#data/*', '\\#adapters/*', '\\#middleware/*', '\\#functions/*'], message: 'core depends on nothing outside core and contracts.' },
          ],
        },
      ],
    },
  },
  {
    files: ['functions/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!zod$|\\./).*', message: 'contracts import zod (and each other) only: the web app imports them too.' }] }],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { boundaries: featureBoundaries },
    rules: { 'boundaries/no-cross-feature-imports': 'error' },
  },
  {
    files: ['web/src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(@/|(\\.\\./)+)(components|features|app)(/|$)',
              message: 'lib/ is the bottom layer: it imports no components/, features/ or app/ (take a UI effect as an argument).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['web/src/lib/config.ts'],
    rules: { 'no-restricted-syntax': ['error', processEnv, zodNamespace] },
  },
);
