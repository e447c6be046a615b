import type { CreatorAnalytics, Sale } from '@contracts/sales.ts';

/** A day of a window: 2026-11-01 plus `n` days. */
const day = (n: number): string => new Date(Date.UTC(2026, 10, 1 + n)).toISOString().slice(0, 10);

/** 30 quiet days but two: 3 sales for £120 on 25 Nov, one for £40 on 28 Nov; one refund in the window. */
export const analytics30: CreatorAnalytics = {
  currency: 'gbp',
  days: 30,
  revenue: 12_000,
  sales: 4,
  refunds: 1,
  series: Array.from({ length: 30 }, (_, n) => {
    const date = day(n);
    if (date === '2026-11-25') return { date, revenue: 12_000, sales: 3 };
    if (date === '2026-11-28') return { date, revenue: 4_000, sales: 1 };
    if (date === '2026-11-29') return { date, revenue: -4_000, sales: 0 };
    return { date, revenue: 0, sales: 0 };
  }),
  byCourse: [
    { courseId: 'course-1', title: 'Watercolour for Beginners', revenue: 8_000, sales: 3 },
    { courseId: 'course-2', title: 'Portraits in Ink', revenue: 4_000, sales: 1 },
  ],
  funnel: { views: 40, checkouts: 8, paid: 4 },
  coupons: [{ code: 'SPRING20', redemptions: 2, discount: 1_600 }],
};

export const analytics90: CreatorAnalytics = {
  ...analytics30,
  days: 90,
  revenue: 123_450,
  sales: 31,
  refunds: 2,
  byCourse: [{ courseId: 'course-1', title: 'Watercolour for Beginners', revenue: 123_450, sales: 31 }],
  coupons: [],
};

/** A window in which nothing was sold or refunded. */
export const quietAnalytics = (days: 30 | 90 | 365): CreatorAnalytics => ({
  currency: 'gbp',
  days,
  revenue: 0,
  sales: 0,
  refunds: 0,
  series: Array.from({ length: days }, (_, n) => ({ date: day(n), revenue: 0, sales: 0 })),
  byCourse: [],
  funnel: { views: 0, checkouts: 0, paid: 0 },
  coupons: [],
});

export const sale = (n: number, changes: Partial<Sale> = {}): Sale => ({
  id: `order-${n}`,
  courseId: 'course-1',
  courseTitle: 'Watercolour for Beginners',
  buyerEmail: `buyer${n}@example.com`,
  amount: 4_000,
  discount: 0,
  currency: 'gbp',
  couponCode: null,
  affiliateId: null,
  seats: null,
  bundleId: null,
  status: 'paid',
  platformFee: 0,
  createdAt: `2026-11-${String(28 - n).padStart(2, '0')}T10:00:00.000Z`,
  ...changes,
});
