/**
 * The SPA's runtime configuration, `/config.json`: deployed next to index.html in the cloud (CDK outputs), served
 * by the dev server from the file the local cloud writes. Same key names as the stack outputs. CognitoEndpoint
 * exists only locally (cognito-local); in the cloud Amplify derives the endpoint from the region. PagesUrl is the
 * origin that serves published landing pages (`/p/<slug>`), kept apart from the app's own origin; without it a
 * published page's link is just its path. AppUrl is the app's own origin: on any other host the SPA may be a creator's
 * storefront on their custom domain (features/storefront/storefront-host.ts), whose account links go back to it.
 *
 * Checked by hand, not with zod: this module is in the initial chunk, and pulling zod's core in here would make
 * every zod feature a lazy screen uses count against the initial-JS budget (~14 KB gzip).
 */
export interface WebConfig {
  Region: string;
  UserPoolId: string;
  UserPoolClientId: string;
  CognitoEndpoint?: string;
  /** e.g. `https://pages.example.com` (no trailing slash). */
  PagesUrl?: string;
  /** The app's own origin, e.g. `https://app.example.com` (no trailing slash). */
  AppUrl?: string;
}

const requiredKeys = ['Region', 'UserPoolId', 'UserPoolClientId'] as const;
const optionalUrlKeys = ['CognitoEndpoint', 'PagesUrl', 'AppUrl'] as const;

/** An http(s) URL: these keys end up in requests and in links a person clicks. */
const isUrl = (value: unknown): value is string => {
  if (typeof value !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/** The config with only its known keys, or the names of the keys that are missing or malformed. */
export const parseWebConfig = (value: unknown): { config: WebConfig } | { invalid: string[] } => {
  const raw = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const invalid: string[] = requiredKeys.filter((key) => typeof raw[key] !== 'string' || raw[key] === '');
  for (const key of optionalUrlKeys) if (raw[key] !== undefined && !isUrl(raw[key])) invalid.push(key);
  if (invalid.length > 0) return { invalid };
  const config: WebConfig = { Region: raw['Region'] as string, UserPoolId: raw['UserPoolId'] as string, UserPoolClientId: raw['UserPoolClientId'] as string };
  if (raw['CognitoEndpoint'] !== undefined) config.CognitoEndpoint = raw['CognitoEndpoint'] as string;
  // Links are built as `${PagesUrl}${path}`: a trailing slash would double the path's.
  if (raw['PagesUrl'] !== undefined) config.PagesUrl = (raw['PagesUrl'] as string).replace(/\/+$/, '');
  if (raw['AppUrl'] !== undefined) config.AppUrl = (raw['AppUrl'] as string).replace(/\/+$/, '');
  return { config };
};

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

/**
 * index.html preloads `/config.json` while the scripts load; this request picks up that response (same URL, mode
 * and credentials, no cache override). The file is served `no-cache`, so a new deployment's config is never stale.
 */
async function fetchConfig(fetchImpl: typeof fetch): Promise<WebConfig> {
  const res = await fetchImpl('/config.json', { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new ConfigError(`/config.json answered ${res.status}`);
  const parsed = parseWebConfig(await res.json().catch(() => undefined));
  if ('invalid' in parsed) throw new ConfigError(`/config.json is invalid: ${parsed.invalid.join(', ')}`);
  return parsed.config;
}

/** The loaded configuration; the app renders only after `loadConfig()` resolved, so this never throws there. */
export function getConfig(): WebConfig {
  if (!current) throw new ConfigError('config read before loadConfig() resolved');
  return current;
}
