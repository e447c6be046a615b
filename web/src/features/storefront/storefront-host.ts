import type { WebConfig } from '@/lib/config.ts';

/**
 * The creator's custom domain the SPA runs on, if it does (issue 32, decision 0055). In AWS a domain's CloudFront
 * distribution tenant serves the bucket's plain index.html, and locally the storefront entry (lib/local/storefront)
 * serves the dev server's, so the page itself says nothing about whose it is: the SPA asks. On the platform's own
 * host (`AppUrl` in config.json) it asks nothing; on any other host it looks the host up with
 * `GET /api/public/domains/{hostname}` before the router exists, and an active domain makes the whole app that
 * creator's storefront (app/router.tsx). Names no creator can hold (`isPlatformHost`) are the platform's without
 * asking; any other host the API does not know (404: a domain pending or just removed) is a storefront with no
 * creator, whose every path is the not-found page linking to the platform: never the platform's app (its sign-in)
 * under a creator's address.
 *
 * Plain fetch and a hand check, no zod: main.tsx awaits this in the initial chunk (see lib/config.ts).
 */
export interface StorefrontSite {
  /** The custom domain, e.g. `learn.example.com`. */
  hostname: string;
  /** The creator's public page; null while they have none, or the host is no active domain (nothing to show). */
  creatorSlug: string | null;
  /** The platform's own address (no trailing slash): sign-in, sign-up, checkout and dashboards are there. */
  appUrl: string;
}

export class StorefrontLookupError extends Error {
  override name = 'StorefrontLookupError';
}

/**
 * Whether `hostname` is the platform's own: config.json's AppUrl's, or a name no creator can hold (the claim rules,
 * functions/core/domains/hostnames.ts, refuse IP addresses and `localhost`; `*.cloudfront.net` names are the
 * platform's distributions'), so no lookup is made there. Without AppUrl (an older config.json) every host is.
 */
export const isPlatformHost = (config: Pick<WebConfig, 'AppUrl'>, hostname: string): boolean => {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (!config.AppUrl || host === '' || host === new URL(config.AppUrl).hostname.toLowerCase()) return true;
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.cloudfront.net')) return true;
  // An IPv4 address (its last label numeric) or an IPv6 one (location.hostname keeps its brackets).
  return /^\d+$/.test(host.split('.').at(-1) ?? '') || host.startsWith('[') || host.includes(':');
};

/**
 * The storefront this page is, or undefined on the platform's own address. Throws
 * StorefrontLookupError when the lookup fails otherwise: on a creator's domain the platform's app would be the wrong
 * page (and could not sign anyone in there), so main.tsx shows its error screen with a reload instead.
 */
export async function storefrontSiteOf(
  config: Pick<WebConfig, 'AppUrl'>,
  hostname: string = typeof location === 'undefined' ? '' : location.hostname,
  fetchImpl: typeof fetch = (...args) => fetch(...args),
): Promise<StorefrontSite | undefined> {
  if (!config.AppUrl || isPlatformHost(config, hostname)) return undefined;
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const res = await fetchImpl(`/api/public/domains/${encodeURIComponent(host)}`, { headers: { Accept: 'application/json' } }).catch((error: unknown) => {
    throw new StorefrontLookupError(`This address could not be looked up: ${error instanceof Error ? error.message : String(error)}`);
  });
  if (res.status === 404) return { hostname: host, creatorSlug: null, appUrl: config.AppUrl };
  if (!res.ok) throw new StorefrontLookupError(`This address could not be looked up (the API answered ${res.status}).`);
  const body = (await res.json().catch(() => undefined)) as { hostname?: unknown; creatorSlug?: unknown } | undefined;
  if (typeof body?.hostname !== 'string' || (body.creatorSlug !== null && typeof body.creatorSlug !== 'string')) {
    throw new StorefrontLookupError('This address could not be looked up (an unexpected answer).');
  }
  return { hostname: body.hostname, creatorSlug: body.creatorSlug, appUrl: config.AppUrl };
}
