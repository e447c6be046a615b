import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * One vitest run, several projects (`npm test` runs them all; `--project <name>` picks one):
 *   unit         pure core with in-memory fakes, handlers with aws-sdk-client-mock, local-cloud pieces
 *   infra        CDK stacks with Template.fromStack and cdk-nag
 *   integration  the real wiring against the local cloud (DynamoDB Local, cognito-local, the gateway)
 *   web          the SPA's component tests (web/vitest.config.ts)
 */

export default defineConfig({
  test: {
    /**
     * `npm test` runs with --coverage: core and the DynamoDB adapters must stay at 90% of their lines or better, each on
     * its own (core by the unit project's in-memory fakes, data by test/integration/data against DynamoDB Local).
     * Coverage is collected in the test workers: a handler the local gateway runs in the main process counts only
     * where a test file calls the code itself.
     * bin/test-parts.sh runs the suite as two processes at once (not `npm test`'s step: decision 0056): each part
     * (VITEST_PART set) keeps its raw coverage in its blob report, and only the merge reports it and holds it to the
     * thresholds.
     */
    coverage: {
      provider: 'v8',
      include: ['functions/core/**', 'functions/data/**'],
      reporter: process.env['VITEST_PART'] ? [] : ['text-summary', 'json-summary', 'html'],
      reportsDirectory: 'coverage',
      // The numbers are worth seeing on a red run too.
      reportOnFailure: true,
      thresholds: process.env['VITEST_PART']
        ? {}
        : {
            'functions/core/**': { lines: 90 },
            'functions/data/**': { lines: 90 },
          },
    },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/functions/**/*.test.ts', 'test/lib/local/**/*.test.ts', 'test/lib/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Handlers under unit test talk to aws-sdk-client-mock, but still read their configuration.
          env: { LOG_LEVEL: 'silent', TABLE_NAME: 'unit-test-table', APP_ORIGIN: 'http://localhost:5173' },
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/lib/stacks/**/*.test.ts', 'test/lib/constructs/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          // A stack synthesized (and its functions bundled) once in beforeAll: seconds alone, more beside the
          // integration part (bin/test-parts.sh), and vitest's 10 s default for hooks is not a budget for it.
          hookTimeout: 180_000,
          env: { CDK_DISABLE_VERSION_CHECK: '1', AWS_EC2_METADATA_DISABLED: 'true' },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/integration/global-setup.ts'],
          // One file at a time (they share the one local cloud, its fault plans and stand-in settings), all in one
          // worker whose modules are loaded once: a fresh worker per file cost ~2 s of start and imports, times ~90 files.
          // So a file leaves the process as it found it: it puts back what it changes in process.env and calls
          // useLocalCloudEnv() (support.ts), which points config, the table client and the job queues at the cloud again.
          fileParallelism: false,
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
          env: { LOG_LEVEL: 'silent' },
        },
      },
      ...(existsSync('web/vitest.config.ts') ? ['web/vitest.config.ts'] : []),
    ],
  },
});
