import { describe, expect, it } from 'vitest';
import { configKeys } from '#functions/config.ts';
import {
  cloudConfigKeys,
  configKeySources,
  expandCapabilities,
  isSetOutsideApp,
  secretIdKeys,
  sourcesOf,
} from '#lib/constructs/function-access.ts';

describe('function access', () => {
  it('classifies every variable of functions/config.ts, and nothing else', () => {
    expect(Object.keys(configKeySources).sort()).toEqual([...configKeys].sort());
  });

  it('gives a function without table or capabilities only its profile and the log level', () => {
    expect(cloudConfigKeys('none', [])).toEqual(['FUNCTION_PROFILE', 'LOG_LEVEL']);
  });

  it("never hands out local endpoints, the local key file, Lambda's own variables or the extension's port", () => {
    const everything = cloudConfigKeys('read-write', [
      'directory:admin',
      'mail',
      'text-model',
      'payments',
      'payments-webhook',
      'secrets',
      'app-links',
    ]);
    for (const key of everything) expect(isSetOutsideApp(key), key).toBe(false);
    for (const key of ['AWS_REGION', 'AWS_SESSION_TOKEN', 'DYNAMODB_ENDPOINT', 'PARAMETERS_SECRETS_EXTENSION_HTTP_PORT']) {
      expect(everything).not.toContain(key);
    }
  });

  it('lets mail and payments link back to the app, and directory admins add to groups', () => {
    expect(expandCapabilities(['mail'])).toEqual(['app-links', 'mail']);
    expect(expandCapabilities(['payments'])).toEqual(['app-links', 'payments']);
    expect(expandCapabilities(['directory:admin'])).toEqual(['directory:add-to-group', 'directory:admin']);
  });

  it('tells a Stripe API caller where its API key is, never the webhook secret', () => {
    const keys = cloudConfigKeys('read', ['payments']);
    expect(keys).toEqual(
      expect.arrayContaining(['TABLE_NAME', 'STRIPE_API_KEY_SECRET_ID', 'STRIPE_PRICE_STARTER', 'APP_ORIGIN']),
    );
    expect(keys).not.toContain('STRIPE_WEBHOOK_SECRET_ID');
  });

  it('tells the webhook where its signing secret is and the price ids, never the API key, and no app links', () => {
    expect(expandCapabilities(['payments-webhook'])).toEqual(['payments-webhook']);
    const keys = cloudConfigKeys('read-write', ['payments-webhook']);
    expect(keys).toEqual(
      expect.arrayContaining(['STRIPE_WEBHOOK_SECRET_ID', 'STRIPE_PRICE_STARTER', 'STRIPE_PRICE_PRO', 'STRIPE_PRICE_CREDITS']),
    );
    expect(keys).not.toContain('STRIPE_API_KEY_SECRET_ID');
    expect(keys).not.toContain('APP_ORIGIN');
  });

  it('names every secret-id variable after a capability, so a grant always has a reason', () => {
    for (const key of secretIdKeys) {
      expect(key).toMatch(/_SECRET_ID$/);
      expect(isSetOutsideApp(key)).toBe(false);
      expect(sourcesOf(key).every((source) => !['always', 'table'].includes(source)), key).toBe(true);
    }
    expect(configKeys.filter((key) => key.endsWith('_SECRET_ID')).sort()).toEqual([...secretIdKeys].sort());
  });
});
