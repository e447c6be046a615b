import type { RedirectResponse } from '#contracts/billing.ts';
import { idempotencyHeaders } from '#contracts/common.ts';
import { purchaseCreditsBody } from '#contracts/credits.ts';
import { purchaseCredits } from '#core/credits/credits.ts';
import { checkoutDeps } from '#functions/composition/deps-payments.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/credits/purchase: the checkout of a 100-credit top-up; the webhook of the paid session grants it. */
export const handler = httpRoute({ route: 'purchase-credits', body: purchaseCreditsBody, headers: idempotencyHeaders }, ({ auth, body, headers }): Promise<RedirectResponse> =>
  purchaseCredits(checkoutDeps(), { userId: auth.userId, body, idempotencyKey: headers['idempotency-key'] }),
);
