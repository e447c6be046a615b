import { useEffect, type CSSProperties } from 'react';
import { ClosingCta } from '../components/closing-cta.tsx';
import { FaqSection } from '../components/faq-section.tsx';
import { FeaturesSection } from '../components/features-section.tsx';
import { Hero } from '../components/hero.tsx';
import { PRODUCT_NAME } from '../components/logo.tsx';
import { PricingSection } from '../components/pricing-section.tsx';
import { SiteFooter } from '../components/site-footer.tsx';
import { SiteHeader } from '../components/site-header.tsx';
import { TestimonialsSection } from '../components/testimonials-section.tsx';

/**
 * The marketing page keeps the app's tokens but gives `primary` the brand's indigo, inside this page only
 * (white on it is 6.3:1, it on white likewise), so every primary button, ring and accent follows.
 */
const brandTheme = {
  '--color-primary': 'oklch(0.511 0.262 276.97)',
  '--color-ring': 'oklch(0.511 0.262 276.97)',
} as CSSProperties;

/** Smooth scrolling for the section links, unless the visitor asked for less motion. */
function useSmoothScroll(): void {
  useEffect(() => {
    const root = document.documentElement;
    const previous = root.style.scrollBehavior;
    if (!window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) root.style.scrollBehavior = 'smooth';
    return () => {
      root.style.scrollBehavior = previous;
    };
  }, []);
}

/**
 * The page renders after the lazy chunk arrives, too late for the browser's own jump to a `#section` in the
 * address (the checkout's cancel URL is `/#pricing`): jump once it exists.
 */
function useInitialHashTarget(): void {
  useEffect(() => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (id) document.getElementById(id)?.scrollIntoView({ block: 'start' });
  }, []);
}

export function LandingScreen() {
  useSmoothScroll();
  useInitialHashTarget();
  useEffect(() => {
    const previous = document.title;
    document.title = `${PRODUCT_NAME}: create, license and grow your online courses`;
    return () => {
      document.title = previous;
    };
  }, []);

  return (
    <div id="top" style={brandTheme} className="min-h-dvh bg-background text-foreground">
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-background px-4 py-2 text-sm font-medium shadow-lg ring-2 ring-ring focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to main content
      </a>
      <SiteHeader />
      <main id="main" tabIndex={-1} className="outline-none">
        <Hero />
        <FeaturesSection />
        <TestimonialsSection />
        <PricingSection />
        <FaqSection />
        <ClosingCta />
      </main>
      <SiteFooter />
    </div>
  );
}
