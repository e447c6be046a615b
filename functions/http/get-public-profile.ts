import type { PublicProfile } from '#contracts/storefront.ts';
import { getPublicProfile } from '#core/storefront/public-profile.ts';
import { profileLinkDeps } from '#functions/composition/deps-storefront.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/creator/public-profile: the creator's public profile, or null before the first save. */
export const handler = httpRoute({ route: 'get-public-profile' }, ({ auth }): Promise<PublicProfile | null> => getPublicProfile(profileLinkDeps(), auth.userId));
