import type { WebConfig } from '@/lib/config.ts';

/**
 * The creator's custom domain the SPA runs on, if it does (issue 32, decision 0055). In AWS a domain's CloudFront
 * distribution tenant serves the bucket's plain index.html, and locally the storefront entry (lib/local/storefront)
 * serves the dev server's, so the page itself says nothing about whose it is: the SPA asks. On the platform's own
 * host (`AppUrl` in config.json) it asks nothing; on any other host it looks the host up with
 * `GET /api/public/domains/{hostname}` before the router exists, and an active domain makes the whole app that
 * creator's storefront (app/router.tsx). A host the API does not know (404: a CloudFront default name, 127.0.0.1) is
 * the platform's app as before.
 *
 * Plain fetch and a hand check, no zod: main.tsx awaits this in the initial chunk (see lib/config.ts).
 */
export interface StorefrontSite {
  /** The custom domain, e.g. `learn.example.com`. */
  hostname: string;
  /** The creator's public page; null while they have none (the storefront then has nothing to show). */
  creatorSlug: string | null;
  /** The platform's own address (no trailing slash): sign-in, sign-up, checkout and dashboards are there. */
  appUrl: string;
}

export class StorefrontLookupError extends Error {
  override name = 'StorefrontLookupError';
}

/** Whether `hostname` is the platform's own (config.json's AppUrl); without AppUrl every host is. */
export const isPlatformHost = (config: Pick<WebConfig, 'AppUrl'>, hostname: string): boolean =>
  !config.AppUrl || new URL(config.AppUrl).hostname.toLowerCase() === hostname.toLowerCase();

/**
 * The storefront this page is, or undefined on the platform's own address (or a host no active domain has). Throws
 * StorefrontLookupError when the lookup fails otherwise: on a creator's domain the platform's app would be the wrong
 * page (and could not sign anyone in there), so main.tsx shows its error screen with a reload instead.
 */
export async function storefrontSiteOf(
  config: Pick<WebConfig, 'AppUrl'>,
  hostname: string = typeof location === 'undefined' ? '' : location.hostname,
  fetchImpl: typeof fetch = (...args) => fetch(...args),
): Promise<StorefrontSite | undefined> {
  if (!config.AppUrl || !hostname || isPlatformHost(config, hostname)) return undefined;
  const res = await fetchImpl(`/api/public/domains/${encodeURIComponent(hostname.toLowerCase())}`, { headers: { Accept: 'application/json' } }).catch((error: unknown) => {
    throw new StorefrontLookupError(`This address could not be looked up: ${error instanceof Error ? error.message : String(error)}`);
  });
  if (res.status === 404) return undefined;
  if (!res.ok) throw new StorefrontLookupError(`This address could not be looked up (the API answered ${res.status}).`);
  const body = (await res.json().catch(() => undefined)) as { hostname?: unknown; creatorSlug?: unknown } | undefined;
  if (typeof body?.hostname !== 'string' || (body.creatorSlug !== null && typeof body.creatorSlug !== 'string')) {
    throw new StorefrontLookupError('This address could not be looked up (an unexpected answer).');
  }
  return { hostname: body.hostname, creatorSlug: body.creatorSlug, appUrl: config.AppUrl };
}
