import * as z from 'zod';
import { clientPolicies, fetchTimeout } from '#adapters/client-policy.ts';
import { config, required } from '#functions/config.ts';

/**
 * Secrets Manager values through the AWS Parameters and Secrets Lambda Extension: a local HTTP call (the extension
 * runs beside the function and caches), so no secret ever sits in the function's environment and no Secrets Manager
 * SDK weighs on the bundle or the cold start. The local cloud runs a stand-in of the same API
 * (lib/local/secrets/). Read on first use and kept for `SECRET_TTL_MS` in the process, then read again (rotation).
 * One attempt within its timeout (adapters/client-policy.ts); a failed read is not cached, so the next call tries again.
 */
const SECRET_TTL_MS = 5 * 60 * 1000;

const answer = z.object({ SecretString: z.string().min(1) });

const cache = new Map<string, { value: Promise<string>; until: number }>();

const fetchSecret = async (secretId: string): Promise<string> => {
  const { PARAMETERS_SECRETS_EXTENSION_HTTP_PORT: port } = config();
  const url = `http://localhost:${port}/secretsmanager/get?secretId=${encodeURIComponent(secretId)}`;
  const res = await fetch(url, {
    headers: { 'X-Aws-Parameters-Secrets-Token': required('AWS_SESSION_TOKEN') },
    signal: fetchTimeout(clientPolicies.secretsExtension),
  });
  if (!res.ok) throw new Error(`the secrets extension answered ${res.status} for ${secretId}`);
  return answer.parse(await res.json()).SecretString;
};

/** The value of a secret, by its id (name or ARN). A failed read is not cached: the next call tries again. */
export const secretValue = (secretId: string, now = Date.now()): Promise<string> => {
  const hit = cache.get(secretId);
  if (hit && hit.until > now) return hit.value;
  const value = fetchSecret(secretId);
  cache.set(secretId, { value, until: now + SECRET_TTL_MS });
  value.catch(() => cache.delete(secretId));
  return value;
};

/** Tests and the local cloud change the secrets between runs. */
export const forgetSecrets = (): void => cache.clear();
