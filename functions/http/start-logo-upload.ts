import { type LogoUpload, logoUploadBody } from '#contracts/branding.ts';
import { startLogoUpload } from '#core/branding/branding.ts';
import { brandingLinkDeps } from '#functions/composition/deps-storefront.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/branding/logo/uploads (Pro): a presigned PUT for a new logo, its type and size signed in. */
export const handler = httpRoute({ route: 'start-logo-upload', body: logoUploadBody }, ({ auth, body }): Promise<LogoUpload> =>
  startLogoUpload(brandingLinkDeps(), { creatorId: auth.userId, body }),
);
