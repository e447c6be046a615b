import { describe, expect, it } from 'vitest';
import { configKeys } from '#functions/config.ts';
import { cloudConfigKeys, configKeySources, expandCapabilities } from '#lib/constructs/function-access.ts';

describe('function access', () => {
  it('classifies every variable of functions/config.ts, and nothing else', () => {
    expect(Object.keys(configKeySources).sort()).toEqual([...configKeys].sort());
  });

  it('gives a function without table or capabilities only the log level', () => {
    expect(cloudConfigKeys('none', [])).toEqual(['LOG_LEVEL']);
  });

  it('never hands out local endpoints, the local key file or the reserved AWS_REGION', () => {
    const everything = cloudConfigKeys('read-write', [
      'directory:admin',
      'mail',
      'text-model',
      'payments',
      'secrets',
      'app-links',
    ]);
    for (const key of everything) expect(['local-only', 'runtime']).not.toContain(configKeySources[key]);
    expect(everything).not.toContain('AWS_REGION');
    expect(everything).not.toContain('DYNAMODB_ENDPOINT');
  });

  it('lets mail and payments link back to the app, and directory admins add to groups', () => {
    expect(expandCapabilities(['mail'])).toEqual(['app-links', 'mail']);
    expect(expandCapabilities(['payments'])).toEqual(['app-links', 'payments']);
    expect(expandCapabilities(['directory:admin'])).toEqual(['directory:add-to-group', 'directory:admin']);
    expect(cloudConfigKeys('read', ['payments'])).toEqual(
      expect.arrayContaining(['TABLE_NAME', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'APP_ORIGIN']),
    );
  });
});
