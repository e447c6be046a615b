/**
 * Hard-coded sample figures, shaped like GET /api/admin/stats (API.md: money in pence, GBP) so the admin issue swaps
 * this module for a query hook without touching the screens' layout.
 */
export interface AdminStats {
  users: { total: number; admins: number; creators: number; leaders: number; learners: number };
  revenue: {
    currency: 'GBP';
    estimatedMonthly: number;
    breakdown: { creatorSubscriptions: number; courseLicenses: number; platformFees: number };
  };
  affiliates: { affiliates: number; commissionsTotal: number; pending: number; paidOut: number };
  recentActivity: { id: string; when: string; who: string; action: string; detail: string }[];
}

const estimatedMonthly = 29 * 100 * 142; // SPEC.md section 9: £29 per subscribed creator per month (142 samples)

export const sampleAdminStats: AdminStats = {
  users: { total: 1234, admins: 3, creators: 187, leaders: 64, learners: 980 },
  revenue: {
    currency: 'GBP',
    estimatedMonthly,
    // SPEC.md section 9: 70% creator subscriptions, 25% course licenses, 5% platform fees.
    breakdown: {
      creatorSubscriptions: Math.round(estimatedMonthly * 0.7),
      courseLicenses: Math.round(estimatedMonthly * 0.25),
      platformFees: Math.round(estimatedMonthly * 0.05),
    },
  },
  affiliates: { affiliates: 42, commissionsTotal: 184_500, pending: 36_250, paidOut: 148_250 },
  recentActivity: [
    { id: 'a1', when: '2 minutes ago', who: 'maya@example.com', action: 'Creator subscribed', detail: 'Pro plan' },
    { id: 'a2', when: '18 minutes ago', who: 'tom@example.com', action: 'Course published', detail: 'Intro to Watercolour' },
    { id: 'a3', when: '1 hour ago', who: 'lena@example.com', action: 'Learner enrolled', detail: 'Public Speaking Basics' },
    { id: 'a4', when: '3 hours ago', who: 'raj@example.com', action: 'Certificate issued', detail: 'Excel for Teams' },
    { id: 'a5', when: 'Yesterday', who: 'sam@example.com', action: 'Trial started', detail: 'Starter plan' },
  ],
};

const pounds = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', maximumFractionDigits: 0 });

/** Pence to a whole-pound label: 1234500 -> '£12,345'. */
export function formatPence(pence: number): string {
  return pounds.format(pence / 100);
}
