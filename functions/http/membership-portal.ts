import type { RedirectResponse } from '#contracts/billing.ts';
import { membershipPortalBody } from '#contracts/memberships.ts';
import { membershipPortal } from '#core/memberships/memberships.ts';
import { membershipPortalDeps } from '#functions/composition/deps-payments.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/learner/memberships/{membershipId}/portal: Stripe's billing portal for the learner's subscription to it (cancel there). */
export const handler = httpRoute({ route: 'membership-portal', body: membershipPortalBody }, ({ auth, body, params }): Promise<RedirectResponse> =>
  membershipPortal(membershipPortalDeps(), { learnerId: auth.userId, membershipId: params['membershipId'] ?? '', returnUrl: body.returnUrl }),
);
