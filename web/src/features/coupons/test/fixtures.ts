import type { Coupon } from '@contracts/coupons.ts';
import type { CourseSummary } from '@contracts/courses.ts';

export const coupon = (code: string, changes: Partial<Coupon> = {}): Coupon => ({
  code,
  kind: 'percent',
  value: 20,
  courseIds: null,
  maxRedemptions: null,
  expiresAt: null,
  redeemed: 0,
  active: true,
  affiliateId: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  ...changes,
});

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

export const courses = {
  items: [
    course('course-1', 'Watercolour for Beginners'),
    course('course-2', 'Portraits in Ink', { priceAmount: 2_500 }),
    course('course-3', 'Botanical Drawing', { status: 'draft', priceAmount: 0 }),
  ],
};
