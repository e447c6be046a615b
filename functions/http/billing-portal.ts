import { portalBody, type RedirectResponse } from '#contracts/billing.ts';
import { idempotencyHeaders } from '#contracts/common.ts';
import { openBillingPortal } from '#core/billing/portal.ts';
import { checkoutDeps } from '#functions/composition/deps-payments.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/billing/portal: the billing portal, to manage or cancel the subscription. */
export const handler = httpRoute({ route: 'billing-portal', body: portalBody, headers: idempotencyHeaders }, ({ auth, body, headers }): Promise<RedirectResponse> =>
  openBillingPortal(checkoutDeps(), { userId: auth.userId, body, idempotencyKey: headers['idempotency-key'] }),
);
