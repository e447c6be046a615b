import type { RedirectResponse } from '#contracts/billing.ts';
import { bundleCheckoutBody } from '#contracts/bundles.ts';
import { idempotencyHeaders } from '#contracts/common.ts';
import { startBundleCheckout } from '#core/sales/checkout.ts';
import { bundleCheckoutDeps } from '#functions/composition/deps-payments.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/public/bundles/{bundleId}/checkout (no sign-in): the hosted checkout of a bundle, on the creator's own Stripe account. */
export const handler = httpRoute({ route: 'bundle-checkout', body: bundleCheckoutBody, headers: idempotencyHeaders }, ({ body, params, headers }): Promise<RedirectResponse> =>
  startBundleCheckout(bundleCheckoutDeps(), { bundleId: params['bundleId'] ?? '', body, idempotencyKey: headers['idempotency-key'] }),
);
