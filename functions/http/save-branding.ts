import { brandingBody, type BrandingView } from '#contracts/branding.ts';
import { saveBranding } from '#core/branding/branding.ts';
import { brandingDeps } from '#functions/composition/deps-storefront.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** PUT /api/branding (Pro): the school's name, primary colour and logo (an uploaded one, checked), saved together. */
export const handler = httpRoute({ route: 'save-branding', body: brandingBody }, ({ auth, body }): Promise<BrandingView> => saveBranding(brandingDeps(), { creatorId: auth.userId, body }));
