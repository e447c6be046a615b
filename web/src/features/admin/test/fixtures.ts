import type { AdminStats } from '@contracts/admin.ts';

const weekStarts = Array.from({ length: 12 }, (_, i) => new Date(Date.UTC(2026, 8, 7 + 7 * i)).toISOString().slice(0, 10));

/** A small platform: 3 subscribed creators (1 on trial), 1 Starter and 1 Pro paid up, no affiliates. */
export const adminStatsFixture: AdminStats = {
  users: { total: 14, admins: 1, creators: 5, leaders: 2, learners: 6 },
  subscriptions: { subscribed: 3, onTrial: 1, starter: 2, pro: 1 },
  revenue: { currency: 'GBP', estimatedMonthly: 8700, mrr: 9500, breakdown: { creatorSubscriptions: 6090, courseLicenses: 2175, platformFees: 435 } },
  courses: { published: 5 },
  certificates: { issued: 0 },
  affiliates: { commissionsTotal: 0, pending: 0, paidOut: 0 },
  recentActivity: [
    { kind: 'subscription', text: 'A creator subscribed to Pro', at: '2026-11-24T10:00:00.000Z' },
    { kind: 'sign-up', text: 'New creator: maya@example.com', at: '2026-11-23T09:30:00.000Z' },
  ],
  trends: { weeks: weekStarts.map((weekStart, i) => ({ weekStart, signUps: i === 11 ? 3 : 1, mrr: i >= 10 ? 9500 : 2800 })) },
};
