import type { RedirectResponse } from '#contracts/billing.ts';
import { connectPayoutsBody } from '#contracts/payouts.ts';
import { connectPayouts } from '#core/sales/payouts.ts';
import { payoutsDeps } from '#functions/composition/deps-payments.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/creator/payouts/connect: the creator's connected account (made once) and a fresh onboarding link. */
export const handler = httpRoute({ route: 'connect-payouts', body: connectPayoutsBody }, ({ auth, body }): Promise<RedirectResponse> =>
  connectPayouts(payoutsDeps(), { userId: auth.userId, body }),
);
