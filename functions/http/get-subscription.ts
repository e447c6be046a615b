import type { SubscriptionResponse } from '#contracts/billing.ts';
import { getSubscription } from '#core/billing/get-subscription.ts';
import { billingRepository, clock } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/me/subscription: status, tier and trial of the caller's subscription ("none" without one). */
export const handler = httpRoute({ route: 'get-subscription' }, ({ auth }): Promise<SubscriptionResponse> =>
  getSubscription({ billing: billingRepository(), clock }, auth.userId),
);
