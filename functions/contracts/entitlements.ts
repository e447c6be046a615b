import type { PlanType } from './plans.ts';

/**
 * What each plan includes (../shared/API.md "Plans (server-enforced)", issue 29): the one place that maps a plan to its
 * feature keys and limits. The route table names the feature a route needs (`RouteDef.feature`), the middleware refuses
 * a creator whose plan lacks it with 403 PLAN_REQUIRED before the handler runs, use cases that depend on a limit check
 * it through these functions, and the web app locks the same controls from `GET /api/me/subscription`'s `features`.
 * Plain constants, no zod: the web app imports them cheaply.
 */
export const featureKeys = [
  'courses',
  'sales',
  'teamLicenses',
  'advancedLicensing',
  'bulkMembers',
  'affiliates',
  'branding',
  'customDomains',
  'api',
  'webhooks',
  'detailedReports',
  'memberships',
  'prioritySupport',
] as const;
export type FeatureKey = (typeof featureKeys)[number];

/** A creator's plan as the entitlements see it: `none` when never subscribed or the subscription ended. */
export type PlanLevel = 'none' | PlanType;

const starterFeatures: readonly FeatureKey[] = ['courses', 'sales', 'teamLicenses'];

export const planFeatures: Readonly<Record<PlanLevel, readonly FeatureKey[]>> = {
  none: [],
  starter: starterFeatures,
  pro: featureKeys,
};

export interface PlanLimits {
  /** The most seats one team licence may have; null: any number. */
  teamLicenseSeats: number | null;
}

/** Starter's team licences: up to 10 seats each, no expiry (advanced licensing is Pro). */
export const STARTER_LICENSE_SEATS = 10;

export const planLimits: Readonly<Record<PlanLevel, PlanLimits>> = {
  none: { teamLicenseSeats: 0 },
  starter: { teamLicenseSeats: STARTER_LICENSE_SEATS },
  pro: { teamLicenseSeats: null },
};

export const hasFeature = (plan: PlanLevel, feature: FeatureKey): boolean => planFeatures[plan].includes(feature);

/** The lowest plan that includes `feature` (what a PLAN_REQUIRED refusal names). */
export const requiredPlan = (feature: FeatureKey): PlanType => (planFeatures.starter.includes(feature) ? 'starter' : 'pro');

/**
 * The plan a subscription in the contract's words gives: a trial counts as Starter, an active or past-due subscription
 * keeps its tier (past due until Stripe ends it), anything else (none, canceled) is no plan.
 */
export const planLevelOf = (status: 'none' | 'trialing' | 'active' | 'past_due' | 'canceled', tier: PlanType | null): PlanLevel => {
  if (status === 'trialing') return 'starter';
  if ((status === 'active' || status === 'past_due') && tier) return tier;
  return 'none';
};

/** The words of a PLAN_REQUIRED refusal. */
export const planRequiredMessage = (plan: PlanType): string =>
  plan === 'pro' ? 'This is part of the Pro plan. Upgrade to Pro to use it.' : 'Choose a plan to use this: start your Starter trial or subscribe to Pro.';
