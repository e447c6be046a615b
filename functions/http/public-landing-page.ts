import { publicLandingPage, publicPageHeaders } from '#core/landing/landing-page.ts';
import { landingPageRepository } from '#functions/composition/deps.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** GET /api/public/pages/{slug}: the published page as text/html under a strict CSP (the pages origin serves it at /p/<slug>). */
export const handler = httpRoute({ route: 'public-landing-page' }, async ({ params }): Promise<Reply> => {
  const page = await publicLandingPage({ pages: landingPageRepository() }, params['slug'] ?? '');
  return Reply.raw(page.status, page.html, publicPageHeaders);
});
