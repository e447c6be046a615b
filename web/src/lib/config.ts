// zod/mini: the same validation at a fraction of the size; this module is in the initial chunk, contracts are not.
import * as z from 'zod/mini';

/**
 * The SPA's runtime configuration, `/config.json`: deployed next to index.html in the cloud (CDK outputs), served
 * by the dev server from the file the local cloud writes. Same key names as the stack outputs. CognitoEndpoint
 * exists only locally (cognito-local); in the cloud Amplify derives the endpoint from the region.
 */
export const webConfigSchema = z.object({
  Region: z.string().check(z.minLength(1)),
  UserPoolId: z.string().check(z.minLength(1)),
  UserPoolClientId: z.string().check(z.minLength(1)),
  CognitoEndpoint: z.optional(z.url()),
});
export type WebConfig = z.infer<typeof webConfigSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

let loaded: Promise<WebConfig> | undefined;
let current: WebConfig | undefined;

/** Fetches and validates `/config.json` once; later calls share the same promise. */
export function loadConfig(fetchImpl: typeof fetch = fetch): Promise<WebConfig> {
  loaded ??= fetchConfig(fetchImpl).then(
    (config) => (current = config),
    (error: unknown) => {
      loaded = undefined; // let a later call (a reload button) try again
      throw error;
    },
  );
  return loaded;
}

async function fetchConfig(fetchImpl: typeof fetch): Promise<WebConfig> {
  const res = await fetchImpl('/config.json', { cache: 'no-store', headers: { Accept: 'application/json' } });
  if (!res.ok) throw new ConfigError(`/config.json answered ${res.status}`);
  const parsed = webConfigSchema.safeParse(await res.json().catch(() => undefined));
  if (!parsed.success) {
    throw new ConfigError(`/config.json is invalid: ${parsed.error.issues.map((i) => i.path.join('.')).join(', ')}`);
  }
  return parsed.data;
}

/** The loaded configuration; the app renders only after `loadConfig()` resolved, so this never throws there. */
export function getConfig(): WebConfig {
  if (!current) throw new ConfigError('config read before loadConfig() resolved');
  return current;
}
