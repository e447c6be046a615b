import { type LandingPage, saveLandingBody } from '#contracts/landing.ts';
import { saveLandingPage } from '#core/landing/landing-page.ts';
import { landingEditDeps } from '#functions/composition/deps-landing.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** PUT /api/landing-page: sanitizes the content again and upserts the creator's page (body up to 512 KiB). */
export const handler = httpRoute({ route: 'save-landing-page', body: saveLandingBody }, ({ auth, body }): Promise<LandingPage> =>
  saveLandingPage(landingEditDeps(), { userId: auth.userId, body }),
);
