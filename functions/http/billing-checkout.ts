import { checkoutBody, type RedirectResponse } from '../contracts/billing.ts';
import { startCheckout } from '../core/billing/start-checkout.ts';
import { checkoutDeps } from '../deps-payments.ts';
import { httpRoute } from '../middleware/http-route.ts';

/** POST /api/billing/checkout: the hosted checkout of a plan (creators only). */
export const handler = httpRoute({ body: checkoutBody }, ({ auth, body, headers }): Promise<RedirectResponse> =>
  startCheckout(checkoutDeps(), { userId: auth!.userId, body, ...(headers['idempotency-key'] ? { idempotencyKey: headers['idempotency-key'] } : {}) }),
);
