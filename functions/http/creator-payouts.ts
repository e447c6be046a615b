import type { PayoutsResponse } from '#contracts/payouts.ts';
import { getPayouts } from '#core/sales/payouts.ts';
import { payoutRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/creator/payouts: the creator's payment account as Stripe last said it is (none, pending, enabled). */
export const handler = httpRoute({ route: 'creator-payouts' }, ({ auth }): Promise<PayoutsResponse> => getPayouts({ payouts: payoutRepository() }, auth.userId));
