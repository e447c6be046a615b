import * as z from 'zod';
import { COURSE_CURRENCY, lessonKind } from './courses.ts';

/** Course sales on the creator's own Stripe account (API.md "Selling courses"; docs/api.md; decision 0016). */

/** GET /api/public/courses/{courseId}: a published course as a visitor sees it (404 unless published). */
export const publicCourse = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  /** Pence; 0 = not for sale. */
  priceAmount: z.number().int().min(0),
  seatPriceAmount: z.number().int().min(0),
  currency: z.literal(COURSE_CURRENCY),
  lessons: z.array(z.object({ title: z.string(), kind: lessonKind })),
  creatorName: z.string(),
});
export type PublicCourse = z.infer<typeof publicCourse>;

export const COUPON_CODE_PATTERN = /^[A-Z0-9_-]{3,32}$/;

/**
 * POST /api/public/courses/{courseId}/checkout (no sign-in). `email` is the buyer's (project extension: the learner
 * account the purchase goes to; Stripe's page asks for it otherwise). `seats` buys a team licence (400 until the
 * licensing issue lands). URLs on the app's own origin.
 */
export const courseCheckoutBody = z.strictObject({
  successUrl: z.url({ protocol: /^https?$/ }).max(2000),
  cancelUrl: z.url({ protocol: /^https?$/ }).max(2000),
  email: z.email().max(254).transform((email) => email.toLowerCase()).optional(),
  couponCode: z
    .string()
    .trim()
    .transform((code) => code.toUpperCase())
    .pipe(z.string().regex(COUPON_CODE_PATTERN, 'A coupon code is 3 to 32 letters, digits, "_" or "-".'))
    .optional(),
  ref: z.string().max(64).optional(),
  seats: z.number().int().min(2).max(1000).optional(),
});
export type CourseCheckoutBody = z.infer<typeof courseCheckoutBody>;

/* ---------- The creator's sales ---------- */

export const saleStatuses = ['paid', 'refunded', 'disputed'] as const;
export type SaleStatus = (typeof saleStatuses)[number];

/** One sale as the creator's Sales list shows it (API.md: `platformFee` is always 0: the creator keeps 100%). */
export const sale = z.object({
  id: z.string(),
  courseId: z.string(),
  courseTitle: z.string(),
  buyerEmail: z.string(),
  /** Pence paid, after the discount. */
  amount: z.number().int().min(0),
  discount: z.number().int().min(0),
  currency: z.literal(COURSE_CURRENCY),
  couponCode: z.string().nullable(),
  affiliateId: z.string().nullable(),
  seats: z.number().int().nullable(),
  /** A bundle's sale (issue 34): the bundle (`courseId` and `courseTitle` are then its id and title), else null. */
  bundleId: z.string().nullable(),
  status: z.enum(saleStatuses),
  platformFee: z.literal(0),
  createdAt: z.string(),
});
export type Sale = z.infer<typeof sale>;

/** 'Bundle: Kitchen basics': how the Sales list, the sales export and the analytics name a bundle's sale (issue 34). */
export const bundleSaleTitle = (bundleTitle: string): string => `Bundle: ${bundleTitle}`;

/** What a sale was of: the course's title, or a bundle's named as one. */
export const saleTitle = (sale: { courseTitle: string; bundleId?: string | null | undefined }): string =>
  sale.bundleId ? bundleSaleTitle(sale.courseTitle) : sale.courseTitle;

/** GET /api/sales?cursor=: the creator's sales, newest first, a page at a time. */
export const saleList = z.object({ items: z.array(sale), nextCursor: z.string().nullable() });
export type SaleList = z.infer<typeof saleList>;
export const salesQuery = z.strictObject({ cursor: z.string().max(2000).optional() });
export const SALES_PAGE_SIZE = 25;

export const analyticsWindows = [30, 90, 365] as const;
/** GET /api/creator/analytics?days=30|90|365 (default 30). */
export const analyticsQuery = z.strictObject({
  days: z
    .enum(['30', '90', '365'])
    .default('30')
    .transform((days) => Number(days) as (typeof analyticsWindows)[number]),
});

/**
 * GET /api/creator/analytics: the window's revenue (pence, net of refunds), sales and refunds, one point a day (oldest
 * first, UTC dates YYYY-MM-DD, every day of the window), and revenue by course (most first). Read from per-day counters
 * kept with each order: the cost grows with the days, never with the orders.
 */
export const creatorAnalytics = z.object({
  currency: z.literal(COURSE_CURRENCY),
  days: z.number().int(),
  revenue: z.number().int(),
  sales: z.number().int().min(0),
  refunds: z.number().int().min(0),
  series: z.array(z.object({ date: z.string(), revenue: z.number().int(), sales: z.number().int().min(0) })),
  byCourse: z.array(z.object({ courseId: z.string(), title: z.string(), revenue: z.number().int(), sales: z.number().int().min(0) })),
  /** Project extension: the window's funnel, public course page views -> checkouts started -> paid. */
  funnel: z.object({ views: z.number().int().min(0), checkouts: z.number().int().min(0), paid: z.number().int().min(0) }),
  /** Project extension: coupon use in the window, each coupon's paid redemptions and the discount they gave (most used first). */
  coupons: z.array(z.object({ code: z.string(), redemptions: z.number().int().min(0), discount: z.number().int().min(0) })),
});
export type CreatorAnalytics = z.infer<typeof creatorAnalytics>;
