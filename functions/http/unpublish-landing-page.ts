import type { LandingPage } from '#contracts/landing.ts';
import { unpublishLandingPage } from '#core/landing/landing-page.ts';
import { landingPageRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** DELETE /api/landing-page/publication: the page is no longer public and its slug is free. */
export const handler = httpRoute({ route: 'unpublish-landing-page' }, ({ auth }): Promise<LandingPage> => unpublishLandingPage({ pages: landingPageRepository() }, auth.userId));
