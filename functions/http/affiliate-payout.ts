import type { Payout } from '#contracts/affiliates.ts';
import { idempotencyHeaders } from '#contracts/common.ts';
import { payOutAffiliate } from '#core/affiliates/affiliates.ts';
import { payoutDeps } from '#functions/composition/deps-affiliates.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/affiliates/{affiliateId}/payouts: the approved commissions marked paid, and the CSV to pay them from. */
export const handler = httpRoute({ route: 'affiliate-payout', headers: idempotencyHeaders }, ({ auth, params, headers }): Promise<Payout> =>
  payOutAffiliate(payoutDeps(), { creatorId: auth.userId, affiliateId: params['affiliateId'] ?? '', idempotencyKey: headers['idempotency-key'] }),
);
