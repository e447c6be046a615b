import type { BundleList } from '#contracts/bundles.ts';
import { listBundles } from '#core/bundles/bundles.ts';
import { bundleDeps } from '#functions/composition/deps-bundles.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/bundles: the creator's bundles, newest first, each with its courses' prices and the saving. */
export const handler = httpRoute({ route: 'list-bundles' }, ({ auth }): Promise<BundleList> => listBundles(bundleDeps(), auth.userId));
