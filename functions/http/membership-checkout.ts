import type { RedirectResponse } from '#contracts/billing.ts';
import { idempotencyHeaders } from '#contracts/common.ts';
import { membershipCheckoutBody } from '#contracts/memberships.ts';
import { startMembershipCheckout } from '#core/memberships/memberships.ts';
import { membershipCheckoutDeps } from '#functions/composition/deps-payments.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/public/memberships/{membershipId}/checkout (no sign-in): Stripe Checkout in subscription mode on the creator's own account. */
export const handler = httpRoute({ route: 'membership-checkout', body: membershipCheckoutBody, headers: idempotencyHeaders }, ({ body, params, headers }): Promise<RedirectResponse> =>
  startMembershipCheckout(membershipCheckoutDeps(), { membershipId: params['membershipId'] ?? '', body, idempotencyKey: headers['idempotency-key'] }),
);
