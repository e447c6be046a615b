import { schoolLogoLocation } from '#core/branding/branding.ts';
import { brandingLinkDeps } from '#functions/composition/deps-storefront.ts';
import { subscriptionReader } from '#functions/composition/deps.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** GET /api/public/schools/{creatorId}/logo: 302 to the school's logo (its emails' image), 404 without one. */
export const handler = httpRoute({ route: 'public-school-logo' }, async ({ params }): Promise<Reply> =>
  Reply.redirect(await schoolLogoLocation({ ...brandingLinkDeps(), billing: subscriptionReader() }, params['creatorId'] ?? '')),
);
