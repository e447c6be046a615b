import { type PublicProfile, publicProfileBody } from '#contracts/storefront.ts';
import { savePublicProfile } from '#core/storefront/public-profile.ts';
import { publicProfileDeps } from '#functions/composition/deps-storefront.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** PUT /api/creator/public-profile: name, bio, address (409 when taken) and picture, saved together. */
export const handler = httpRoute({ route: 'save-public-profile', body: publicProfileBody }, ({ auth, body }): Promise<PublicProfile> =>
  savePublicProfile(publicProfileDeps(), { creatorId: auth.userId, body }),
);
