import { portalBody, type RedirectResponse } from '../contracts/billing.ts';
import { openBillingPortal } from '../core/billing/start-checkout.ts';
import { checkoutDeps } from '../deps-payments.ts';
import { httpRoute } from '../middleware/http-route.ts';

/** POST /api/billing/portal: the billing portal, to manage or cancel the subscription. */
export const handler = httpRoute({ body: portalBody }, ({ auth, body }): Promise<RedirectResponse> =>
  openBillingPortal(checkoutDeps(), { userId: auth!.userId, body }),
);
