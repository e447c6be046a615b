import type { SubscriptionResponse } from '@contracts/billing.ts';
import { planFeatures, planLevelOf, planLimits } from '@contracts/entitlements.ts';
import type { CourseSummary } from '@contracts/courses.ts';

/** A creator's course as GET /api/courses lists it (the screens that pick courses: coupons, affiliates' links). */
export const course = (id: string, title: string, changes: Partial<CourseSummary> = {}): CourseSummary => ({
  id,
  title,
  description: '',
  status: 'published',
  lessonCount: 4,
  enrolledCount: 0,
  priceAmount: 4_000,
  seatPriceAmount: 0,
  createdAt: '2026-10-01T10:00:00.000Z',
  ...changes,
});

/** Two published courses and a draft. */
export const courses = {
  nextCursor: null,
  items: [
    course('course-1', 'Watercolour for Beginners'),
    course('course-2', 'Portraits in Ink', { priceAmount: 2_500 }),
    course('course-3', 'Botanical Drawing', { status: 'draft', priceAmount: 0 }),
  ],
};

/** The creator's subscription as the server answers it: the features and limits are those of the plan its status gives. */
export const subscription = (tier: SubscriptionResponse['tier'], changes: Partial<SubscriptionResponse> = {}): SubscriptionResponse => {
  const status = changes.status ?? (tier === null ? 'none' : 'active');
  const level = planLevelOf(status, tier);
  return {
    status,
    subscribed: tier !== null,
    tier,
    trialEnd: null,
    onTrial: false,
    trialDaysLeft: 0,
    currentPeriodEnd: tier === null ? null : '2026-12-20T10:00:00.000Z',
    cancelAtPeriodEnd: false,
    trialAvailable: tier === null,
    features: [...planFeatures[level]],
    limits: planLimits[level],
    ...changes,
  };
};
