import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Secrets generated once per data dir, so encrypted items and Stripe signatures stay valid across restarts.
 * The key file holds 32 raw random bytes: the local stand-in for the KMS key that protects stored secrets.
 */
export const ensureLocalSecrets = (dataDir: string): { secretsKeyFile: string; stripeWebhookSecret: string; stripeConnectWebhookSecret: string } => {
  mkdirSync(dataDir, { recursive: true });
  const secretsKeyFile = join(dataDir, 'secrets.key');
  if (!existsSync(secretsKeyFile)) writeFileSync(secretsKeyFile, randomBytes(32), { mode: 0o600 });
  /** A webhook endpoint's signing secret, made once. */
  const signingSecret = (file: string): string => {
    const path = join(dataDir, file);
    if (!existsSync(path)) writeFileSync(path, `whsec_${randomBytes(24).toString('hex')}`, { mode: 0o600 });
    return readFileSync(path, 'utf8').trim();
  };
  return { secretsKeyFile, stripeWebhookSecret: signingSecret('stripe-webhook-secret'), stripeConnectWebhookSecret: signingSecret('stripe-connect-webhook-secret') };
};

/**
 * The values the local edge adds as `x-origin-verify` (decision 0028), made once per data dir as the deployment makes
 * its own: `pages` by the local pages origin (always checked), `app` by the Vite proxy (checked only with
 * LOCAL_EDGE_ONLY=1, so tests may call the gateway directly at ApiUrl).
 */
export const localOriginSecrets = (dataDir: string): { app: string; pages: string } => {
  mkdirSync(dataDir, { recursive: true });
  const value = (file: string): string => {
    const path = join(dataDir, file);
    if (!existsSync(path)) writeFileSync(path, randomBytes(24).toString('base64url'), { mode: 0o600 });
    return readFileSync(path, 'utf8').trim();
  };
  return { app: value('origin-secret'), pages: value('pages-origin-secret') };
};

/** LOCAL_EDGE_ONLY=1: the gateway refuses what did not come through the local edge (the Vite proxy, the pages origin). */
export const localEdgeOnly = (env: NodeJS.ProcessEnv): boolean => env['LOCAL_EDGE_ONLY'] === '1';
