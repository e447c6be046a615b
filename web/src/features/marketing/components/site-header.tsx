import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button.tsx';
import { paths } from '@/lib/paths.ts';
import { LogoMark, PRODUCT_NAME } from './logo.tsx';

export const sectionLinks = [
  { label: 'Features', href: '#features' },
  { label: 'Pricing', href: '#pricing' },
  { label: 'Reviews', href: '#reviews' },
] as const;

/**
 * The sticky top bar. Below 768 px the section links wrap onto a second row instead of hiding behind a menu
 * button: every link stays one tap away and nothing needs a script to open.
 */
export function SiteHeader() {
  return (
    <header className="sticky top-0 z-40 border-b border-border/70 bg-background/85 backdrop-blur-md">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 px-4 sm:gap-x-6 sm:px-6 md:h-16 md:flex-nowrap">
        <a
          href="#top"
          className="flex h-14 items-center gap-2.5 rounded-md text-base font-semibold tracking-tight outline-none focus-visible:ring-2 focus-visible:ring-ring md:h-auto"
        >
          <LogoMark />
          {/* Below 400 px the mark alone leaves room for Sign In and Get Started on the same row. */}
          <span className="sr-only min-[400px]:not-sr-only">{PRODUCT_NAME}</span>
        </a>
        <nav
          aria-label="Main"
          className="order-last -mx-4 w-[calc(100%+2rem)] border-t border-border/70 sm:-mx-6 sm:w-[calc(100%+3rem)] md:order-none md:mx-0 md:w-auto md:flex-1 md:border-0"
        >
          <ul className="flex items-center justify-center gap-1 py-1.5 md:justify-start md:py-0">
            {sectionLinks.map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
                  className="inline-flex h-9 items-center rounded-md px-3 text-sm font-medium text-muted-foreground transition-colors outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring"
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="ml-auto flex items-center gap-1.5 sm:gap-2">
          <Button asChild variant="ghost" size="sm" className="h-9 px-3 text-sm">
            <Link to={paths.login}>Sign In</Link>
          </Button>
          <Button asChild size="sm" className="h-9 px-3.5 text-sm">
            <Link to={paths.signup}>Get Started</Link>
          </Button>
        </div>
      </div>
    </header>
  );
}
