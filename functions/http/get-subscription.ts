import type { SubscriptionResponse } from '../contracts/billing.ts';
import { subscriptionView } from '../core/billing/subscription-state.ts';
import { billingRepository, clock } from '../deps.ts';
import { httpRoute } from '../middleware/http-route.ts';

/** GET /api/me/subscription: status, tier and trial of the caller's subscription ("none" without one). */
export const handler = httpRoute({}, async ({ auth }): Promise<SubscriptionResponse> =>
  subscriptionView(await billingRepository().getSubscription(auth!.userId), clock.now()),
);
