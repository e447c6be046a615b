import { type AvatarUpload, avatarUploadBody } from '#contracts/storefront.ts';
import { startAvatarUpload } from '#core/storefront/public-profile.ts';
import { profileLinkDeps } from '#functions/composition/deps-storefront.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/creator/public-profile/avatar: a presigned PUT for a new picture, its type and size signed in. */
export const handler = httpRoute({ route: 'start-avatar-upload', body: avatarUploadBody }, ({ auth, body }): Promise<AvatarUpload> =>
  startAvatarUpload(profileLinkDeps(), { creatorId: auth.userId, body }),
);
