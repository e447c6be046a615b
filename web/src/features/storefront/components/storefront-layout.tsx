import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { BrandingView } from '@contracts/branding.ts';
import { BrandHomeLink } from '@/components/brand-home-link.tsx';
import { SchoolMark, schoolColours } from '@/components/school-mark.tsx';
import { Button } from '@/components/ui/button.tsx';
import { paths } from '@/lib/paths.ts';
import { hasStoredSession } from '@/lib/stored-session.ts';
import { SiteLink, useStorefrontLinks } from '../storefront-site.tsx';

/**
 * The frame of the public pages (outside the dashboard): the product's name linking home, 'Sign in' (or 'My
 * dashboard' when a session is stored: read from storage, so Amplify never loads here), the page, a small footer.
 * A branded creator's pages (issue 32) show their school's mark instead, linking to their page (`home`), and their
 * primary colour and its readable text colour replace the platform's for everything inside. On a creator's custom
 * domain 'Sign in' goes to the platform's own address (storefront-site.tsx): accounts are there.
 */
export function StorefrontLayout({ children, branding, home }: { children: ReactNode; branding?: BrandingView | null | undefined; home?: string | undefined }) {
  const signedIn = hasStoredSession();
  const links = useStorefrontLinks();
  const colours = schoolColours(branding);
  return (
    <div className="flex min-h-dvh flex-col bg-background" style={colours} data-branded={branding ? 'true' : undefined}>
      <header className="sticky top-0 z-40 border-b border-border/70 bg-background/90 backdrop-blur-md">
        <div className="mx-auto flex h-14 max-w-6xl items-center justify-between gap-3 px-4 sm:px-6">
          {branding ? (
            <Link to={home ?? paths.home} className="min-w-0 rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring">
              <SchoolMark name={branding.schoolName} logoUrl={branding.logoUrl} primaryColor={branding.primaryColor} onPrimaryColor={branding.onPrimaryColor} />
            </Link>
          ) : (
            <BrandHomeLink />
          )}
          <Button asChild variant="ghost" size="sm" className="h-9 px-3 text-sm">
            <SiteLink to={links.platform(signedIn ? paths.dashboard : paths.login)}>{signedIn ? 'My dashboard' : 'Sign in'}</SiteLink>
          </Button>
        </div>
      </header>
      <main id="main" className="flex-1">
        {children}
      </main>
      <footer className="border-t bg-subtle">
        <div className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-6 text-xs text-muted-foreground sm:flex-row sm:items-center sm:justify-between sm:px-6">
          <p>Payments are handled by Stripe. Creators are paid directly and keep 100% of every sale.</p>
          <p>{branding ? `© ${new Date().getFullYear()} ${branding.schoolName} · Powered by Course Platform` : `© ${new Date().getFullYear()} Course Platform`}</p>
        </div>
      </footer>
    </div>
  );
}

/** What the public pages say when there is nothing at the address, or it could not be read. */
export function StorefrontMessage({ icon, title, children, action }: { icon: ReactNode; title: string; children: ReactNode; action?: ReactNode }) {
  return (
    <div className="mx-auto flex max-w-md flex-col items-center gap-3 px-4 py-20 text-center sm:py-28">
      <span className="grid size-12 place-items-center rounded-full bg-muted text-muted-foreground [&_svg]:size-6">{icon}</span>
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <div className="text-sm text-muted-foreground">{children}</div>
      {action}
    </div>
  );
}
