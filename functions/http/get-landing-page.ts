import type { LandingPage } from '#contracts/landing.ts';
import { getLandingPage } from '#core/landing/landing-page.ts';
import { landingPageRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/landing-page: the creator's saved page with its publication, or null. */
export const handler = httpRoute({ route: 'get-landing-page' }, ({ auth }): Promise<LandingPage | null> => getLandingPage({ pages: landingPageRepository() }, auth.userId));
