import { createBundleBody } from '#contracts/bundles.ts';
import { createBundle } from '#core/bundles/bundles.ts';
import { bundleDeps } from '#functions/composition/deps-bundles.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/bundles: 201 and the bundle (2-50 of the creator's own published courses at one price). */
export const handler = httpRoute({ route: 'create-bundle', body: createBundleBody }, async ({ auth, body }): Promise<Reply> =>
  new Reply(201, await createBundle(bundleDeps(), { creatorId: auth.userId, body })),
);
