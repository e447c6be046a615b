import type { AffiliateList } from '#contracts/affiliates.ts';
import { listAffiliates } from '#core/affiliates/affiliates.ts';
import { affiliateListDeps } from '#functions/composition/deps-affiliates.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/affiliates: the creator's affiliates with their links and figures, newest first. */
export const handler = httpRoute({ route: 'list-affiliates' }, ({ auth }): Promise<AffiliateList> => listAffiliates(affiliateListDeps(), auth.userId));
