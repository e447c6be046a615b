// ESLint flat config: TypeScript rules everywhere, plus the import boundaries of ARCHITECTURE.md.
import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
            { group: sdkAndFrameworks, message: 'core is pure: no SDKs or frameworks. Declare a port in core/ports.ts.' },
            { group: ['**/data/*', '**/adapters/*', '**/middleware/*', '**/config.ts', '**/deps.ts', '\\#data/*', '\\#adapters/*', '\\#middleware/*', '\\#functions/*'], message: 'core depends on nothing outside core and contracts.' },
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
