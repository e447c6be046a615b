/**
 * How every Lambda is bundled, shared by lib/constructs/app-function.ts (CDK's NodejsFunction) and the bench
 * (test/bench/bundles.ts), so the bench measures what ships. No aws-cdk-lib here: the bench imports this cheaply.
 */

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
 * lambda-credentials.ts), ~135 KB less in every bundle that holds an AWS SDK client. X-Ray's SDK v2 patcher is the
 * only importer of `semver`, for one `gte` never called here (functions/adapters/xray-semver.ts), ~28 KB less in
 * every bundle.
 */
export const bundleAliases: Readonly<Record<string, string>> = {
  '@aws-sdk/credential-provider-node': './functions/adapters/lambda-credentials.ts',
  semver: './functions/adapters/xray-semver.ts',
};
