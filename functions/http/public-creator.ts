import type { PublicCreator } from '#contracts/storefront.ts';
import { publicCreator } from '#core/storefront/storefront.ts';
import { storefrontDeps } from '#functions/composition/deps-storefront.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/public/creators/{slug}: a creator's public page with their published courses (no sign-in). */
export const handler = httpRoute({ route: 'public-creator' }, ({ params }): Promise<PublicCreator> => publicCreator(storefrontDeps(), params['slug'] ?? ''));
