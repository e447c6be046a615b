import { defineConfig } from '@playwright/test';

/**
 * Browser tests in Debian's Chromium (never a downloaded browser) against the local cloud, which
 * test/e2e/global-setup.ts starts once for the run. One worker: the machine is small and the tests share
 * the one local cloud. `npm test` runs them as two shards at once (`--shard`, bin/test-parts.sh, decision 0063), each
 * process with a cloud of its own; E2E_SHARD names the shard's own folders, as Playwright empties its output folder
 * when it starts.
 */
const shard = process.env['E2E_SHARD'];

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  outputDir: shard ? `test-results/shard-${shard}` : 'test-results',
  globalSetup: './test/e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: shard ? `playwright-report/shard-${shard}` : 'playwright-report' }]],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // TOOLCHAIN.md "Browser tests": no sandbox in containers, and no request may leave loopback.
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
      ],
    },
  },
});
