import { bundleFunction } from '../lib/constructs/bundling.ts';

/**
 * `node --import tsx bin/bundle-function.ts <name> <handler> <output dir> <route modules dir>`: builds one function's
 * bundle (`<output dir>/index.mjs`). lib/constructs/app-function.ts runs it for each function as CDK synthesizes: CDK
 * asks for an asset's bundle synchronously, and esbuild's plugins (lib/constructs/bundling.ts) run only in its
 * asynchronous build, so it runs in a process of its own.
 */
const [name, handler, outputDir, routeModulesDir] = process.argv.slice(2);
if (!name || !handler || !outputDir || !routeModulesDir) {
  console.error('usage: bin/bundle-function.ts <name> <handler> <output dir> <route modules dir>');
  process.exit(2);
}
await bundleFunction({ name, handler, outfile: `${outputDir}/index.mjs`, routeModulesDir });
