import { deleteBundle } from '#core/bundles/bundles.ts';
import { bundleDeps } from '#functions/composition/deps-bundles.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** DELETE /api/bundles/{bundleId}: 204; off sale for good (its buyers keep their courses). */
export const handler = httpRoute({ route: 'delete-bundle' }, async ({ auth, params }): Promise<Reply> => {
  await deleteBundle(bundleDeps(), { creatorId: auth.userId, bundleId: params['bundleId'] ?? '' });
  return new Reply(204, null);
});
