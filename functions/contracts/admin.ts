import * as z from 'zod';
import { isoDate } from './common.ts';

/* ---------- Platform analytics (GET /api/admin/stats) ---------- */

const count = z.number().int().min(0);
/** Money in pence (docs/api.md: amounts are integers in pence with their currency). */
const pence = z.number().int().min(0);

/** One line of the admin's recent activity: what happened, in words, and when. */
export const activityKinds = ['sign-up', 'subscription', 'campaign'] as const;
export const platformActivity = z.object({
  kind: z.enum(activityKinds),
  text: z.string(),
  at: isoDate,
});
export type PlatformActivity = z.infer<typeof platformActivity>;

/** One week of the trend charts: new accounts that week, and the MRR as it stood at the week's end (or now). */
export const trendWeek = z.object({
  /** Monday 00:00 UTC, as a date (YYYY-MM-DD). */
  weekStart: z.iso.date(),
  signUps: count,
  /** Pence. */
  mrr: pence,
});
export type TrendWeek = z.infer<typeof trendWeek>;

/**
 * GET /api/admin/stats: platform figures from counters moved in the same transaction as the change they count, so the
 * read costs the same for 10 users as for 100,000 (DATA.md pattern 18).
 */
export const adminStats = z.object({
  /** `disabled`: accounts an admin turned off, counted in the totals above as well (they stay users). */
  users: z.object({ total: count, admins: count, creators: count, leaders: count, learners: count, disabled: count }),
  /** `subscribed` = on trial or paid up; `starter` / `pro` split the subscribed by plan. */
  subscriptions: z.object({ subscribed: count, onTrial: count, starter: count, pro: count }),
  revenue: z.object({
    currency: z.literal('GBP'),
    /** The spec's estimate (SPEC.md section 9): £29 per subscribed creator per month, in pence. */
    estimatedMonthly: pence,
    /** Monthly recurring revenue of the paid-up (active) subscriptions at their plan's price, in pence. */
    mrr: pence,
    /** The estimate split 70 / 25 / 5 %; the three parts always add up to it. */
    breakdown: z.object({ creatorSubscriptions: pence, courseLicenses: pence, platformFees: pence }),
  }),
  /**
   * The spec's Active Courses: published courses across creators; `total` every course (drafts too); `enrollments`
   * the active enrolments in them, `completed` those finished.
   */
  courses: z.object({ published: count, total: count, enrollments: count, completed: count }),
  /** Certificates issued on course completion (the spec's Certificates Issued) (revoked ones included: they were issued). */
  certificates: z.object({ issued: count }),
  /**
   * The affiliate network across creators: affiliates, link clicks, paid sales credited to affiliates; and their
   * commissions in pence: earned in total (net of voided ones) = pending (in their refund hold) + approved (due) + paid out.
   */
  affiliates: z.object({ affiliates: count, clicks: count, sales: count, commissionsTotal: pence, pending: pence, approved: pence, paidOut: pence }),
  /** Newest first, at most 10, from the last 30 days. */
  recentActivity: z.array(platformActivity).max(10),
  /** The last 12 weeks, oldest first; the last one is the current week. */
  trends: z.object({ weeks: z.array(trendWeek).length(12) }),
});
export type AdminStats = z.infer<typeof adminStats>;
