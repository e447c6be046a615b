import type { BrandingView } from '#contracts/branding.ts';
import { getBranding } from '#core/branding/branding.ts';
import { brandingLinkDeps } from '#functions/composition/deps-storefront.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/branding: the creator's school branding, or null before the first save. */
export const handler = httpRoute({ route: 'get-branding' }, ({ auth }): Promise<BrandingView | null> => getBranding(brandingLinkDeps(), auth.userId));
