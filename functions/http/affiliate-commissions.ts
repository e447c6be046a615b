import type { CommissionList } from '#contracts/affiliates.ts';
import { pageQuery } from '#contracts/common.ts';
import { affiliateCommissions } from '#core/affiliates/affiliates.ts';
import { affiliateRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/affiliates/{affiliateId}/commissions?cursor=&limit=: the affiliate's commissions, newest first, a page at a time (another creator's: 404). */
export const handler = httpRoute({ route: 'affiliate-commissions', query: pageQuery }, ({ auth, params, query }): Promise<CommissionList> =>
  affiliateCommissions({ affiliates: affiliateRepository() }, { creatorId: auth.userId, affiliateId: params['affiliateId'] ?? '', ...query }),
);
