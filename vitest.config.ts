import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

/**
 * One vitest run, several projects (`npm test` runs them all; `--project <name>` picks one):
 *   unit         pure core with in-memory fakes, handlers with aws-sdk-client-mock, local-cloud pieces
 *   infra        CDK stacks with Template.fromStack and cdk-nag
 *   integration  the real wiring against the local cloud (DynamoDB Local, cognito-local, the gateway)
 *   web          the SPA's component tests (web/vitest.config.ts)
 */
// The AWS SDK warns on Node 20 that future versions need 22 (Lambda runs 22): noise in test output.
process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] = 'true';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/functions/**/*.test.ts', 'test/lib/local/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          env: { LOG_LEVEL: 'silent' },
        },
      },
      {
        test: {
          name: 'infra',
          include: ['test/lib/stacks/**/*.test.ts', 'test/lib/constructs/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          env: { CDK_DISABLE_VERSION_CHECK: '1', AWS_EC2_METADATA_DISABLED: 'true' },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/integration/global-setup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 180_000,
          env: { LOG_LEVEL: 'silent' },
        },
      },
      ...(existsSync('web/vitest.config.ts') ? ['web/vitest.config.ts'] : []),
    ],
  },
});
