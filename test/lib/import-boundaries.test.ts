import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The lint rules that keep the layers apart (eslint.config.js), checked on the imports they exist to refuse. */
const lint = async (filePath: string, code: string, rule = 'no-restricted-imports') => {
  const [result] = await new ESLint().lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === rule).map((m) => m.message);
};

describe('import boundaries', () => {
  it('keep core pure: no data, adapters, middleware or composition, by alias or by path', async () => {
    for (const specifier of ['#data/table.ts', '#adapters/ses-mailer.ts', '#middleware/http-route.ts', '#functions/function-timeouts.ts', '#functions/deps.ts', '#functions/composition/deps.ts']) {
      expect(await lint('functions/core/example.ts', `import { x } from '${specifier}';\nexport const y = x;\n`), specifier).toEqual([expect.stringContaining('core depends on nothing outside core and contracts')]);
    }
    expect(await lint('functions/core/example.ts', "import { x } from '#core/errors.ts';\nimport { z } from '#contracts/common.ts';\nexport const y = [x, z];\n")).toEqual([]);
  });

  it("keep core's rooms: the root imports no domain, a domain's ports import only the root, no domain imports another's ports", async () => {
    const rooms = (filePath: string, specifier: string) => lint(filePath, `import type { X } from '${specifier}';\nexport type Y = X;\n`, 'rooms/core-rooms');
    expect(await rooms('functions/core/example.ts', '#core/sales/orders.ts')).toEqual([expect.stringContaining("core's root modules are the floor")]);
    expect(await rooms('functions/core/example.ts', '#core/sales/ports.ts')).toEqual([expect.stringContaining("core's root modules are the floor")]);
    expect(await rooms('functions/core/sales/ports.ts', '#core/sales/orders.ts')).toEqual([expect.stringContaining("A domain's ports.ts imports only core's root modules")]);
    expect(await rooms('functions/core/sales/orders.ts', '#core/licenses/ports.ts')).toEqual([expect.stringContaining('a port two domains use is shared')]);
    // The same by relative path (which the alias rule refuses too).
    expect(await rooms('functions/core/sales/orders.ts', '../licenses/ports.ts')).toEqual([expect.stringContaining('a port two domains use is shared')]);
    for (const [filePath, specifier] of [
      ['functions/core/sales/orders.ts', '#core/sales/ports.ts'],
      ['functions/core/sales/orders.ts', '#core/ports.ts'],
      ['functions/core/sales/orders.ts', '#core/licenses/licenses.ts'],
      ['functions/core/sales/ports.ts', '#core/ports.ts'],
      ['functions/core/example.ts', '#core/errors.ts'],
      ['functions/data/orders.ts', '#core/sales/ports.ts'],
    ]) {
      expect(await rooms(filePath!, specifier!), `${filePath} <- ${specifier}`).toEqual([]);
    }
  });

  it('refuse an import cycle, types included, naming the files around it', async () => {
    // stripe/state.ts imports objects.ts: objects.ts importing state.ts back closes a circle.
    const circle = "import type { StripeState } from './state.ts';\nexport type S = StripeState;\n";
    expect(await lint('lib/local/stripe/objects.ts', circle, 'rooms/no-import-cycles')).toEqual([
      'Import cycle: lib/local/stripe/objects.ts -> lib/local/stripe/state.ts -> lib/local/stripe/objects.ts. Move what both sides need into a module both import.',
    ]);
    expect(await lint('lib/local/stripe/objects.ts', "import type { Mode } from './mode.ts';\nexport type S = Mode;\n", 'rooms/no-import-cycles')).toEqual([]);
  });
});
