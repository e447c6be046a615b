import type { SubscriptionResponse, SubscriptionStatus } from '#contracts/billing.ts';
import { planFeatures, planLevelOf, planLimits, type PlanLevel } from '#contracts/entitlements.ts';
import type { BillingRepository, CounterDeltas, StoredSubscription } from '#core/ports.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Stripe's statuses in the contract's words. */
export const contractStatus = (stripeStatus: string | undefined): SubscriptionStatus => {
  switch (stripeStatus) {
    case 'trialing':
    case 'active':
    case 'past_due':
    case 'canceled':
      return stripeStatus;
    case 'unpaid':
    case 'incomplete':
      return 'past_due';
    case 'incomplete_expired':
    case 'paused':
      return 'canceled';
    default:
      return 'none';
  }
};

/** Stripe statuses that mean the user trialed or paid (`incomplete` and `incomplete_expired` were never paid). */
const reachedStatuses: readonly string[] = ['trialing', 'active', 'past_due', 'unpaid', 'canceled', 'paused'];
export const reachedPlan = (stripeStatus: string): boolean => reachedStatuses.includes(stripeStatus);

/** Has access to the paid plan: on trial or paid up. */
export const isSubscribed = (status: SubscriptionStatus): boolean => status === 'trialing' || status === 'active';

/**
 * Tie-break between events of the same second: a later stage of the lifecycle wins, so every delivery order ends
 * in the same state (created < trialing < active < past_due < canceled).
 */
export const statusRank = (stripeStatus: string): number =>
  ({ none: 0, trialing: 1, active: 2, past_due: 3, canceled: 4 })[contractStatus(stripeStatus)];

/** Events older than the last applied one are ignored. */
export const isNewer = (before: StoredSubscription | undefined, eventAt: number, rank: number): boolean =>
  !before || eventAt > before.lastEventAt || (eventAt === before.lastEventAt && rank > before.lastEventRank);

export const trialDaysLeft = (trialEnd: string | null, now: Date): number =>
  trialEnd ? Math.max(0, Math.ceil((Date.parse(trialEnd) - now.getTime()) / DAY_MS)) : 0;

/** The plan a stored subscription gives (issue 29): trial = Starter, past due keeps its tier, none or ended = none. */
export const planOf = (sub: Pick<StoredSubscription, 'status' | 'tier'> | undefined): PlanLevel => planLevelOf(contractStatus(sub?.status), sub?.tier ?? null);

/**
 * A creator's plan, read where a use case's rule depends on it (licence terms, bulk import, affiliates, reports, the
 * support request's priority, a course on sale). The middleware reads the same through its own cached projection.
 */
export const creatorPlanOf = async (deps: { billing: Pick<BillingRepository, 'getSubscription'> }, creatorId: string): Promise<PlanLevel> =>
  planOf(await deps.billing.getSubscription(creatorId));

/** GET /api/me/subscription from what is stored. */
export const subscriptionView = (sub: StoredSubscription | undefined, now: Date): SubscriptionResponse => {
  const status = contractStatus(sub?.status);
  const trialEnd = sub?.trialEnd ?? null;
  const onTrial = trialEnd !== null && Date.parse(trialEnd) > now.getTime();
  const plan = planLevelOf(status, sub?.tier ?? null);
  return {
    status,
    subscribed: isSubscribed(status),
    tier: sub?.tier ?? null,
    trialEnd,
    onTrial,
    trialDaysLeft: trialDaysLeft(trialEnd, now),
    currentPeriodEnd: sub?.currentPeriodEnd ?? null,
    cancelAtPeriodEnd: sub?.cancelAtPeriodEnd ?? false,
    trialAvailable: !sub?.hasSubscribed,
    features: [...planFeatures[plan]],
    limits: planLimits[plan],
  };
};

/**
 * The buckets a subscription counts in (admin stats, read in O(1)): its state, its plan while subscribed, and its plan
 * while paid up (`active`: the MRR; a trial pays nothing yet, a failed payment is not revenue).
 */
const buckets = (sub: StoredSubscription | undefined): string[] => {
  const status = contractStatus(sub?.status);
  if (!sub || status === 'none') return [];
  const names = [`subs_${status}`];
  if (isSubscribed(status) && sub.tier) names.push(`subs_tier_${sub.tier}`);
  if (status === 'active' && sub.tier) names.push(`subs_paying_${sub.tier}`);
  return names;
};

/** The counters a stored subscription leaves when it is erased (an account's deletion): out of every bucket it was in. */
export const erasedDeltas = (before: StoredSubscription): CounterDeltas => Object.fromEntries(buckets(before).map((name) => [name, -1]));

export const counterDeltas = (before: StoredSubscription | undefined, after: StoredSubscription): CounterDeltas => {
  const deltas: CounterDeltas = {};
  for (const name of buckets(before)) deltas[name] = (deltas[name] ?? 0) - 1;
  for (const name of buckets(after)) deltas[name] = (deltas[name] ?? 0) + 1;
  return Object.fromEntries(Object.entries(deltas).filter(([, v]) => v !== 0));
};
