import { type LandingPage, publishLandingBody } from '#contracts/landing.ts';
import { publishLandingPage } from '#core/landing/landing-page.ts';
import { landingEditDeps } from '#functions/composition/deps-landing.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** PUT /api/landing-page/publication: publishes a sanitized snapshot of the saved page at /p/<slug>. */
export const handler = httpRoute({ route: 'publish-landing-page', body: publishLandingBody }, ({ auth, body }): Promise<LandingPage> =>
  publishLandingPage(landingEditDeps(), { userId: auth.userId, slug: body.slug }),
);
