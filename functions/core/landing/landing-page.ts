import { type LandingPage, landingSlug, PUBLIC_PAGE_CSP, publicPagePath, type SaveLandingBody } from '#contracts/landing.ts';
import { AppError, ConflictError, NotFoundError, ValidationError } from '#core/errors.ts';
import type { LandingPageRepository, StoredLandingPage } from '#core/landing/ports.ts';
import type { Clock } from '#core/ports.ts';

export interface LandingEditDeps {
  pages: LandingPageRepository;
  /** The server's sanitizer (adapters/html-sanitizer.ts): a full document in, a safe full document out. */
  sanitize: (html: string) => string;
  clock: Clock;
}

const tooLarge = () => new AppError('PAYLOAD_TOO_LARGE', 'The page is too large to store, even compressed. Shorten it and try again.');

/** The sanitizer refuses what it cannot make safe (it throws rather than answer a dangerous page): the page is refused. */
const sanitized = (deps: Pick<LandingEditDeps, 'sanitize'>, html: string): string => {
  try {
    return deps.sanitize(html);
  } catch (error) {
    throw Object.assign(new ValidationError('This page cannot be made safe to show. Remove unusual markup and try again.'), { cause: error });
  }
};

/** The page as the API shows it: its publication with the path where it is served. */
export const landingPageView = (page: StoredLandingPage): LandingPage => ({
  ...page,
  publication: page.publication && { ...page.publication, path: publicPagePath(page.publication.slug) },
});

/** GET /api/landing-page: null before the first save. */
export const getLandingPage = async (deps: { pages: LandingPageRepository }, userId: string): Promise<LandingPage | null> => {
  const page = await deps.pages.getPage(userId);
  return page ? landingPageView(page) : null;
};

/** PUT /api/landing-page: the content is sanitized again (the browser's editor is not trusted), then upserted. */
export const saveLandingPage = async (deps: LandingEditDeps, input: { userId: string; body: SaveLandingBody }): Promise<LandingPage> => {
  const saved = await deps.pages.savePage(input.userId, {
    content: sanitized(deps, input.body.content),
    settings: input.body.settings,
    updatedAt: deps.clock.now().toISOString(),
  });
  if (saved === 'too-large') throw tooLarge();
  return landingPageView(saved);
};

/**
 * PUT /api/landing-page/publication: a snapshot of the saved page, sanitized once more, is published at the slug
 * (reserved for this creator in the same transaction); moving to another slug frees the old one. Republishing at the
 * same slug updates the snapshot.
 */
export const publishLandingPage = async (deps: LandingEditDeps, input: { userId: string; slug: string }): Promise<LandingPage> => {
  const page = await deps.pages.getPage(input.userId);
  if (!page) throw new NotFoundError('Save your landing page before publishing it.');
  const publication = { slug: input.slug, publishedAt: deps.clock.now().toISOString() };
  const result = await deps.pages.publish({
    userId: input.userId,
    publication,
    html: sanitized(deps, page.content),
    previousSlug: page.publication?.slug ?? null,
  });
  switch (result) {
    case 'published':
      return landingPageView({ ...page, publication });
    case 'slug-taken':
      throw new ConflictError(`The address ${publicPagePath(input.slug)} is already taken. Choose another.`);
    case 'changed':
      throw new ConflictError('Your landing page changed while it was being published. Please try again.');
    case 'too-large':
      throw tooLarge();
  }
};

/** DELETE /api/landing-page/publication: the page stops being public and its slug is free again. Idempotent. */
export const unpublishLandingPage = async (deps: { pages: LandingPageRepository }, userId: string): Promise<LandingPage> => {
  const page = await deps.pages.getPage(userId);
  if (!page) throw new NotFoundError('You have not saved a landing page yet.');
  if (!page.publication) return landingPageView(page);
  const result = await deps.pages.unpublish({ userId, slug: page.publication.slug });
  if (result === 'changed') throw new ConflictError('Your landing page changed while it was being unpublished. Please try again.');
  return landingPageView({ ...page, publication: null });
};

/**
 * What every public page answer carries, found or not. The sanitizer is the first wall; this is the second: no script
 * can run (no script-src, and `sandbox` without allow-scripts), the page is an opaque origin even if it were ever
 * served from the app's own domain, and nothing may frame it, post a form or load anything but images and fonts.
 */
export const publicPageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': PUBLIC_PAGE_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'public, max-age=60',
} as const;

export const PAGE_NOT_FOUND_HTML = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Page not found</title>
<style>body{font-family:system-ui,sans-serif;margin:0;min-height:100vh;display:grid;place-items:center;color:#1f2937;background:#f9fafb}main{text-align:center;padding:2rem}</style></head>
<body><main><h1>Page not found</h1><p>There is no page at this address.</p></main></body>
</html>`;

/**
 * GET /api/public/pages/{slug}: the published snapshot, as HTML. An unknown (or impossible) slug is a small HTML
 * "Page not found", since a browser shows this answer to a person.
 */
export const publicLandingPage = async (deps: { pages: LandingPageRepository }, slug: string): Promise<{ status: 200 | 404; html: string }> => {
  const published = landingSlug.safeParse(slug).success ? await deps.pages.getPublished(slug) : undefined;
  return published ? { status: 200, html: published.html } : { status: 404, html: PAGE_NOT_FOUND_HTML };
};
