import { checkoutBody, type RedirectResponse } from '#contracts/billing.ts';
import { idempotencyHeaders } from '#contracts/common.ts';
import { startCheckout } from '#core/billing/checkout.ts';
import { checkoutDeps } from '#functions/composition/deps-payments.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/billing/checkout: the hosted checkout of a plan (creators only); one per purchase intent. */
export const handler = httpRoute({ route: 'billing-checkout', body: checkoutBody, headers: idempotencyHeaders }, ({ auth, body, headers }): Promise<RedirectResponse> =>
  startCheckout(checkoutDeps(), { userId: auth.userId, body, idempotencyKey: headers['idempotency-key'] }),
);
