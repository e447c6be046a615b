import type { AffiliateList } from '#contracts/affiliates.ts';
import { pageQuery } from '#contracts/common.ts';
import { listAffiliates } from '#core/affiliates/affiliates.ts';
import { affiliateListDeps } from '#functions/composition/deps-affiliates.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/affiliates?cursor=&limit=: the creator's affiliates with their links and figures, newest first, a page at a time. */
export const handler = httpRoute({ route: 'list-affiliates', query: pageQuery }, ({ auth, query }): Promise<AffiliateList> => listAffiliates(affiliateListDeps(), auth.userId, query));
