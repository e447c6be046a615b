import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NODE_MAJOR } from '#lib/constructs/bundling.ts';

const rootPackage = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  devDependencies: Record<string, string>;
  engines: Record<string, string>;
};

/** docs/decisions/0011-node-22.md: the tests run on the Node.js the functions have in Lambda, whatever the machine's. */
describe('the runtime the tests run on', () => {
  it(`is Node.js ${NODE_MAJOR}, the functions' Lambda runtime (this run: ${process.version})`, () => {
    console.info(`tests running on node ${process.version} (${process.execPath})`);
    expect(process.versions.node.split('.')[0]).toBe(String(NODE_MAJOR));
  });

  it('comes from the pinned node devDependency, which npm run puts first on the PATH', () => {
    expect(rootPackage.devDependencies['node']).toMatch(new RegExp(`^${NODE_MAJOR}\\.\\d+\\.\\d+$`));
    expect(process.execPath).toContain('node_modules');
  });
});
