import type { PublicBundle } from '#contracts/bundles.ts';
import { publicBundle } from '#core/bundles/bundles.ts';
import { publicBundleDeps } from '#functions/composition/deps-bundles.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/public/bundles/{bundleId}: an active bundle of published courses as a visitor sees it, with its seller (no sign-in); 404 otherwise. */
export const handler = httpRoute({ route: 'public-bundle' }, ({ params }): Promise<PublicBundle> => publicBundle(publicBundleDeps(), params['bundleId'] ?? ''));
