import type { PublicCreator } from '#contracts/storefront.ts';
import { publicCreator } from '#core/storefront/storefront.ts';
import { publicCreatorDeps } from '#functions/composition/deps-public-creator.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/public/creators/{slug}: a creator's public page with their published courses, bundles and memberships (no sign-in). */
export const handler = httpRoute({ route: 'public-creator' }, ({ params }): Promise<PublicCreator> => publicCreator(publicCreatorDeps(), params['slug'] ?? ''));
