/**
 * The creator whose custom domain this page is served on (issue 32, decision 0055): the storefront entry marks the
 * SPA's index.html with `<meta name="storefront-creator" content="<slug>">` (lib/local/storefront/server.ts), and the
 * router then shows that creator's page at `/` instead of the platform's landing page. Undefined on the platform's
 * own address, and outside a browser (the prerender).
 */
export const storefrontCreatorOfPage = (doc: Document | undefined = typeof document === 'undefined' ? undefined : document): string | undefined =>
  doc?.querySelector('meta[name="storefront-creator"]')?.getAttribute('content') || undefined;
