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
