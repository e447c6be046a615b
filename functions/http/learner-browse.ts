import type { BrowseList } from '#contracts/storefront.ts';
import { learnerBrowse } from '#core/storefront/storefront.ts';
import { browseDeps } from '#functions/composition/deps-storefront.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/learner/browse: the courses on sale of the creators the learner learns with. */
export const handler = httpRoute({ route: 'learner-browse' }, ({ auth }): Promise<BrowseList> => learnerBrowse(browseDeps(), auth.userId));
