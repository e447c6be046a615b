import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The lint rules that keep the layers apart (eslint.config.js), checked on the imports they exist to refuse. */
const lint = async (filePath: string, code: string) => {
  const [result] = await new ESLint().lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
};

describe('import boundaries', () => {
  it('keep core pure: no data, adapters, middleware or composition, by alias or by path', async () => {
    for (const specifier of ['#data/table.ts', '#adapters/ses-mailer.ts', '#middleware/http-route.ts', '#functions/function-timeouts.ts', '#functions/deps.ts']) {
      expect(await lint('functions/core/example.ts', `import { x } from '${specifier}';\nexport const y = x;\n`), specifier).toEqual([expect.stringContaining('core depends on nothing outside core and contracts')]);
    }
    expect(await lint('functions/core/example.ts', "import { x } from '#core/errors.ts';\nimport { z } from '#contracts/common.ts';\nexport const y = [x, z];\n")).toEqual([]);
  });
});
