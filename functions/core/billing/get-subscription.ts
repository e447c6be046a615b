import type { SubscriptionResponse } from '#contracts/billing.ts';
import type { BillingRepository, Clock } from '#core/ports.ts';
import { subscriptionView } from '#core/billing/subscription-state.ts';

/** GET /api/me/subscription: status, tier and trial of the caller's subscription ("none" without one). */
export const getSubscription = async (deps: { billing: BillingRepository; clock: Clock }, userId: string): Promise<SubscriptionResponse> =>
  subscriptionView(await deps.billing.getSubscription(userId), deps.clock.now());
