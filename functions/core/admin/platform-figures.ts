import type { AdminStats, TrendWeek } from '#contracts/admin.ts';
import { planTypes, plans, type PlanType } from '#contracts/plans.ts';

/**
 * The admin's platform figures as pure arithmetic over counters, so each rule is tested on its own and the read
 * stays O(1). Money is in pence.
 */

/** SPEC.md section 9's estimate: £29 per subscribed creator per month (kept as the spec words it, beside the real MRR). */
export const ESTIMATE_PER_SUBSCRIBER_PENCE = 2900;
/** SPEC.md "Revenue Breakdown": the estimate split 70 % creator subscriptions, 25 % course licenses, 5 % platform fees. */
export const BREAKDOWN_SHARES = { creatorSubscriptions: 70, courseLicenses: 25 } as const;
/** The trend charts cover this many weeks, the current one last. */
export const TREND_WEEKS = 12;

export const estimatedMonthly = (subscribed: number): number => ESTIMATE_PER_SUBSCRIBER_PENCE * Math.max(0, subscribed);

/** 70 / 25 / 5 % of the estimate in whole pence; platform fees take the rounding remainder, so the parts add up exactly. */
export const revenueBreakdown = (estimate: number): AdminStats['revenue']['breakdown'] => {
  const creatorSubscriptions = Math.round((estimate * BREAKDOWN_SHARES.creatorSubscriptions) / 100);
  const courseLicenses = Math.round((estimate * BREAKDOWN_SHARES.courseLicenses) / 100);
  return { creatorSubscriptions, courseLicenses, platformFees: estimate - creatorSubscriptions - courseLicenses };
};

/** Paid-up subscriptions per plan. */
export type PayingCounts = Record<PlanType, number>;

/** Monthly recurring revenue: each paid-up subscription at its plan's price (contracts/plans.ts, what Stripe charges). */
export const mrr = (paying: PayingCounts): number => planTypes.reduce((sum, plan) => sum + Math.max(0, paying[plan]) * plans[plan].pricePence, 0);

/** Monday 00:00 UTC of the week `at` falls in, as YYYY-MM-DD: the key of that week's trend counters. */
export const weekStartOf = (at: Date | string): string => {
  const date = new Date(at);
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  day.setUTCDate(day.getUTCDate() - ((day.getUTCDay() + 6) % 7));
  return day.toISOString().slice(0, 10);
};

/** The Mondays of the last `count` weeks, oldest first, ending with the current week's. */
export const lastWeekStarts = (now: Date, count = TREND_WEEKS): string[] => {
  const current = Date.parse(`${weekStartOf(now)}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => new Date(current - (count - 1 - i) * 7 * 86_400_000).toISOString().slice(0, 10));
};

/** One week's trend counters as stored: new accounts, and the net change of paid-up subscriptions per plan. */
export interface WeekCounters {
  weekStart: string;
  signUps: number;
  paying: PayingCounts;
}

/**
 * The trend from the stored weeks: a week with no item had no sign-ups and no change. A week's MRR is the MRR at its
 * end, found by walking back from today's paid-up counts and undoing each later week's net change: exact, because
 * every change moved the platform counters and its week in the same transaction.
 */
export const trendWeeks = (weekStarts: string[], stored: WeekCounters[], payingNow: PayingCounts): TrendWeek[] => {
  const byWeek = new Map(stored.map((week) => [week.weekStart, week]));
  const level: PayingCounts = { ...payingNow };
  const weeks: TrendWeek[] = [];
  for (const weekStart of [...weekStarts].reverse()) {
    const week = byWeek.get(weekStart);
    weeks.push({ weekStart, signUps: Math.max(0, week?.signUps ?? 0), mrr: mrr(level) });
    for (const plan of planTypes) level[plan] -= week?.paying[plan] ?? 0;
  }
  return weeks.reverse();
};
