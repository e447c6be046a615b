import { createContext, useContext, type ComponentProps, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { creatorPagePath, paths, publicCoursePath } from '@/lib/paths.ts';
import type { StorefrontSite } from './storefront-host.ts';

/**
 * The storefront's pages on a creator's custom domain (storefront-host.ts) read where they are from here: their
 * creator's page is `/` there (not `/u/:slug`), another creator's course or certificate is not shown, and whatever
 * needs an account (sign-in, sign-up, checkout, dashboards) is on the platform's own address, linked absolutely.
 * Outside it (the platform's address) the context is undefined and the pages behave as they always have.
 */
const SiteContext = createContext<StorefrontSite | undefined>(undefined);

export function StorefrontSiteProvider({ site, children }: { site: StorefrontSite; children: ReactNode }) {
  return <SiteContext.Provider value={site}>{children}</SiteContext.Provider>;
}

export const useStorefrontSite = (): StorefrontSite | undefined => useContext(SiteContext);

/** Where the public pages link to, on the platform's address or on a creator's domain. */
export interface StorefrontLinks {
  /** A creator's page: `/` on their own domain. */
  creator(slug: string): string;
  /** A course's page: on the platform's address when it is not this domain's creator's (it cannot be shown here). */
  course(courseId: string, creatorSlug?: string | null): string;
  /** A page that needs the platform (sign-in, dashboards, the checkout's page): absolute on a custom domain. */
  platform(path: string): string;
  /** Whether a link leaves the SPA (an absolute URL): an `<a href>`, not a router `<Link>`. */
  external(href: string): boolean;
}

export const storefrontLinks = (site: StorefrontSite | undefined): StorefrontLinks => ({
  creator: (slug) => (site && site.creatorSlug === slug ? paths.home : site ? `${site.appUrl}${creatorPagePath(slug)}` : creatorPagePath(slug)),
  course: (courseId, creatorSlug) =>
    site && creatorSlug !== undefined && creatorSlug !== site.creatorSlug ? `${site.appUrl}${publicCoursePath(courseId)}` : publicCoursePath(courseId),
  platform: (path) => (site ? `${site.appUrl}${path}` : path),
  external: (href) => /^https?:\/\//.test(href),
});

export const useStorefrontLinks = (): StorefrontLinks => storefrontLinks(useStorefrontSite());

/** A link of the public pages: the router's for a path, a plain anchor for the platform's absolute address. */
export function SiteLink({ to, ...props }: Omit<ComponentProps<'a'>, 'href'> & { to: string }) {
  return /^https?:\/\//.test(to) ? <a href={to} {...props} /> : <Link to={to} {...props} />;
}
