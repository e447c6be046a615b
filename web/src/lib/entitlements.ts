import { queryOptions, useQuery } from '@tanstack/react-query';
import { subscriptionResponse } from '@contracts/billing.ts';
import { planLevelOf, requiredPlan, type FeatureKey, type PlanLevel } from '@contracts/entitlements.ts';
import type { PlanType } from '@contracts/plans.ts';
import { apiClient } from './api-client.ts';

/**
 * The one way the web app asks "may I?" (issue 29): what the creator's plan includes, from GET /api/me/subscription's
 * `features` and `limits` (the same answer and cache key as the billing feature's plan panel: one request for both).
 * The server is the wall (403 PLAN_REQUIRED); this only decides what a control shows: the control itself, or its lock
 * and the way to the plan that includes it.
 */
export const entitlementsQueryOptions = () =>
  queryOptions({
    queryKey: ['billing', 'subscription'] as const,
    queryFn: ({ signal }) => apiClient.get('/api/me/subscription', subscriptionResponse, { signal }),
  });

export interface Entitlements {
  /** The plan is known (loaded). Until then nothing is locked: the server still refuses what the plan lacks. */
  ready: boolean;
  /** `none` (never subscribed, or ended), `starter` (a trial included) or `pro`. */
  plan: PlanLevel;
  /** A live subscription (trial, active, past due): a change of plan goes through the billing portal, not a checkout. */
  subscribed: boolean;
  /** Whether the plan includes the feature (true until the plan is known). */
  can: (feature: FeatureKey) => boolean;
  /** The feature is known to be missing from the plan: its control shows the lock. */
  locked: (feature: FeatureKey) => boolean;
  /** The most seats one team licence may have on this plan; null: any number (also while unknown). */
  seatLimit: number | null;
}

/** The caller's entitlements (creators only: `enabled` false for other roles, which have no plan of their own). */
export function useEntitlements({ enabled = true }: { enabled?: boolean } = {}): Entitlements {
  const subscription = useQuery({ ...entitlementsQueryOptions(), enabled });
  const data = subscription.data;
  if (!data) {
    return { ready: false, plan: 'none', subscribed: false, can: () => true, locked: () => false, seatLimit: null };
  }
  const features = new Set<FeatureKey>(data.features);
  return {
    ready: true,
    plan: planLevelOf(data.status, data.tier),
    // Past due keeps its plan until Stripe ends it: still a subscription to change in the portal.
    subscribed: data.status === 'trialing' || data.status === 'active' || data.status === 'past_due',
    can: (feature) => features.has(feature),
    locked: (feature) => !features.has(feature),
    seatLimit: data.limits.teamLicenseSeats,
  };
}

/** The plan that includes the feature (what its lock says and where its upgrade path leads). */
export const planFor = (feature: FeatureKey): PlanType => requiredPlan(feature);
