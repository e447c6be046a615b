import { useSyncExternalStore } from 'react';
import { LogoMark, PRODUCT_NAME } from './logo.tsx';

const noChanges = () => () => {};

/**
 * The current year, for the copyright line. The page is prerendered at build time (app/prerender.tsx), when the
 * viewer's year is unknown: the prerendered line has none, and it is filled in right after hydration.
 */
function useCurrentYear(): number | null {
  return useSyncExternalStore(noChanges, () => new Date().getFullYear(), () => null);
}

export function SiteFooter() {
  const year = useCurrentYear();
  return (
    <footer className="border-t bg-subtle">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-10 sm:px-6 md:flex-row md:items-center md:justify-between">
        <div className="max-w-sm">
          <p className="flex items-center gap-2.5 font-semibold tracking-tight">
            <LogoMark className="size-7" />
            {PRODUCT_NAME}
          </p>
          <p className="mt-2 text-sm text-muted-foreground">
            The course platform for creators and the teams they teach. 99.9% uptime, and you keep 100% of your earnings.
          </p>
        </div>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
            <li>
              <a className="rounded text-muted-foreground underline-offset-4 outline-none hover:text-foreground hover:underline focus-visible:ring-2 focus-visible:ring-ring" href="#faq">
                Questions and answers
              </a>
            </li>
            <li>
              <a className="rounded text-muted-foreground underline-offset-4 outline-none hover:text-foreground hover:underline focus-visible:ring-2 focus-visible:ring-ring" href="#top">
                Back to top
              </a>
            </li>
          </ul>
        </nav>
      </div>
      <div className="border-t">
        <p className="mx-auto max-w-6xl px-4 py-6 text-sm text-muted-foreground sm:px-6">
          © {year === null ? '' : `${year} `}
          {PRODUCT_NAME}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
