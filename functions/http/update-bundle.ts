import { type Bundle, updateBundleBody } from '#contracts/bundles.ts';
import { updateBundle } from '#core/bundles/bundles.ts';
import { bundleDeps } from '#functions/composition/deps-bundles.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** PATCH /api/bundles/{bundleId}: its fields, its courses, on or off sale; another creator's is 404. */
export const handler = httpRoute({ route: 'update-bundle', body: updateBundleBody }, ({ auth, body, params }): Promise<Bundle> =>
  updateBundle(bundleDeps(), { creatorId: auth.userId, bundleId: params['bundleId'] ?? '', body }),
);
