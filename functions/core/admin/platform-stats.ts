import type { AdminStats, PlatformActivity } from '#contracts/admin.ts';
import type { Clock } from '#core/ports.ts';
import { estimatedMonthly, lastWeekStarts, mrr, revenueBreakdown, trendWeeks, type WeekCounters } from '#core/admin/platform-figures.ts';

/** Recent activity: at most this many lines, from at most this far back (the lines expire after it). */
export const RECENT_ACTIVITY = 10;
export const ACTIVITY_DAYS = 30;

/**
 * The platform counters item (pattern 18), by name; a counter nothing has moved yet is absent (0). Users per role and
 * in total; subscriptions per state (`subs_<status>`), subscribed per plan (`subs_tier_<plan>`), paid up per plan
 * (`subs_paying_<plan>`); courses published and in all, active enrolments and completed ones; certificates issued; the affiliate network (data/affiliates.ts).
 */
export type PlatformCounters = Partial<Record<string, number>>;

/** What the stats read: three requests, whatever the number of users. */
export interface PlatformStatsReader {
  read(input: { weekStarts: string[]; activityLimit: number }): Promise<{ counters: PlatformCounters; weeks: WeekCounters[]; activity: PlatformActivity[] }>;
}

const n = (counters: PlatformCounters, name: string): number => Math.max(0, counters[name] ?? 0);

/**
 * GET /api/admin/stats: 1. the counters, the last 12 weeks and the newest activity, read at once; 2. the figures
 * computed from them (the spec's estimate and its breakdown, the MRR from the plan prices, the trend).
 */
export const platformStats = async (deps: { stats: PlatformStatsReader; clock: Clock }): Promise<AdminStats> => {
  const now = deps.clock.now();
  const weekStarts = lastWeekStarts(now);
  const { counters, weeks, activity } = await deps.stats.read({ weekStarts, activityLimit: RECENT_ACTIVITY });
  const paying = { starter: counters['subs_paying_starter'] ?? 0, pro: counters['subs_paying_pro'] ?? 0 };
  const subscribed = n(counters, 'subs_trialing') + n(counters, 'subs_active');
  const estimate = estimatedMonthly(subscribed);
  const oldest = now.getTime() - ACTIVITY_DAYS * 86_400_000;
  return {
    users: {
      total: n(counters, 'usersTotal'),
      admins: n(counters, 'users_admin'),
      creators: n(counters, 'users_creator'),
      leaders: n(counters, 'users_leader'),
      learners: n(counters, 'users_learner'),
      disabled: n(counters, 'users_disabled'),
    },
    subscriptions: { subscribed, onTrial: n(counters, 'subs_trialing'), starter: n(counters, 'subs_tier_starter'), pro: n(counters, 'subs_tier_pro') },
    revenue: { currency: 'GBP', estimatedMonthly: estimate, mrr: mrr(paying), breakdown: revenueBreakdown(estimate) },
    courses: {
      published: n(counters, 'courses_published'),
      total: n(counters, 'courses_total'),
      enrollments: n(counters, 'enrollments_active'),
      completed: n(counters, 'enrollments_completed'),
    },
    certificates: { issued: n(counters, 'certificates_issued') },
    affiliates: {
      affiliates: n(counters, 'affiliates_total'),
      clicks: n(counters, 'affiliate_clicks'),
      sales: n(counters, 'affiliate_sales'),
      commissionsTotal: n(counters, 'commissions_total'),
      pending: n(counters, 'commissions_pending'),
      approved: n(counters, 'commissions_approved'),
      paidOut: n(counters, 'commissions_paid'),
    },
    // DynamoDB removes expired lines within days, not at once: an expired one still stored is not shown.
    recentActivity: activity.filter((line) => Date.parse(line.at) >= oldest).slice(0, RECENT_ACTIVITY),
    trends: { weeks: trendWeeks(weekStarts, weeks, paying) },
  };
};
