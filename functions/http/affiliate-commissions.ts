import type { CommissionList } from '#contracts/affiliates.ts';
import { affiliateCommissions } from '#core/affiliates/affiliates.ts';
import { affiliateRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/affiliates/{affiliateId}/commissions: the affiliate's commissions, newest first (another creator's: 404). */
export const handler = httpRoute({ route: 'affiliate-commissions' }, ({ auth, params }): Promise<CommissionList> =>
  affiliateCommissions({ affiliates: affiliateRepository() }, { creatorId: auth.userId, affiliateId: params['affiliateId'] ?? '' }),
);
