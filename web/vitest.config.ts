import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { alias } from './vite.config.ts';

/**
 * The web app's component tests: the vitest project `web` (the root config lists this file among its projects;
 * it also runs alone: `npx vitest run --config web/vitest.config.ts`). Tests sit next to their code as
 * `src/**\/*.test.tsx`.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  resolve: { alias },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    css: false,
    restoreMocks: true,
    // Vitest's 5 s default is not a budget: a screen's test typing a long form can pass 5 s on CI's 2 cores, more so
    // beside the integration files at a lower priority (bin/test-parts.sh).
    testTimeout: 15_000,
  },
});
