import * as z from 'zod';
import { brandingView } from './branding.ts';
import { isoDate } from './common.ts';
import { COURSE_CURRENCY } from './courses.ts';
import { courseCheckoutBody } from './sales.ts';

/**
 * Bundles (issue 34 point 1; API.md "Bundles and memberships"; docs/api.md "Bundles"): a creator sells 2 to 50 of
 * their own published courses together at one price, on their own Stripe account as a course is sold. Shared with
 * the web app (the creator's Bundles page, the public bundle page).
 */

export const BUNDLE_COURSES_MIN = 2;
export const BUNDLE_COURSES_MAX = 50;
export const BUNDLES_PER_CREATOR_MAX = 100;
/** Stripe's largest single charge in GBP (£999,999.99), as a course's price. */
export const BUNDLE_PRICE_MAX = 99_999_999;

const courseIds = z
  .array(z.string().min(1).max(100))
  .min(BUNDLE_COURSES_MIN, `A bundle holds ${BUNDLE_COURSES_MIN} to ${BUNDLE_COURSES_MAX} courses.`)
  .max(BUNDLE_COURSES_MAX, `A bundle holds ${BUNDLE_COURSES_MIN} to ${BUNDLE_COURSES_MAX} courses.`)
  .refine((ids) => new Set(ids).size === ids.length, 'A course is in a bundle once.');

/**
 * The courses' separate prices added up, and what the bundle's price saves over them (never below 0): the server's
 * answer and the creator's form (the saving shown live as they choose) compute it here, alike.
 */
export const bundlePricing = (priceAmount: number, coursePrices: readonly number[]): { separateAmount: number; savingAmount: number } => {
  const separateAmount = coursePrices.reduce((sum, price) => sum + price, 0);
  return { separateAmount, savingAmount: Math.max(0, separateAmount - priceAmount) };
};

/** POST /api/bundles. `priceAmount`: pence, at least £1 (a bundle is sold: 0 is not a price). */
export const createBundleBody = z.strictObject({
  title: z.string().trim().min(1).max(200),
  description: z.string().trim().max(5000).optional(),
  courseIds,
  priceAmount: z.number().int().min(100).max(BUNDLE_PRICE_MAX),
});
export type CreateBundleBody = z.infer<typeof createBundleBody>;

/** PATCH /api/bundles/{bundleId}: any of the fields, and `active` (false: off sale, its page 404; its buyers keep their courses). */
export const updateBundleBody = z
  .strictObject({
    title: z.string().trim().min(1).max(200).optional(),
    description: z.string().trim().max(5000).optional(),
    courseIds: courseIds.optional(),
    priceAmount: z.number().int().min(100).max(BUNDLE_PRICE_MAX).optional(),
    active: z.boolean().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Send at least one of title, description, courseIds, priceAmount, active.');
export type UpdateBundleBody = z.infer<typeof updateBundleBody>;

/** A bundle as its creator sees it: the courses with their own prices, and what the bundle saves over them. */
export const bundle = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  courses: z.array(z.object({ id: z.string(), title: z.string(), priceAmount: z.number().int().min(0) })),
  priceAmount: z.number().int(),
  currency: z.literal(COURSE_CURRENCY),
  /** The courses' separate prices added up, and what the bundle saves over them (pence; 0 when it saves nothing). */
  separateAmount: z.number().int(),
  savingAmount: z.number().int(),
  active: z.boolean(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Bundle = z.infer<typeof bundle>;
export const bundleList = z.object({ items: z.array(bundle) });
export type BundleList = z.infer<typeof bundleList>;

/**
 * Who sells on a public page, as the course page names them: the creator's public name, page (null before they have
 * one) and picture, whether their plan sells now (false: the page says so, a checkout answers 409), and their school
 * branding while their plan includes it.
 */
export const publicSeller = z.object({
  creatorName: z.string(),
  creatorSlug: z.string().nullable(),
  creatorAvatarUrl: z.string().nullable(),
  onSale: z.boolean(),
  branding: brandingView.nullable(),
});
export type PublicSeller = z.infer<typeof publicSeller>;

/** GET /api/public/bundles/{bundleId}: an active bundle as a visitor sees it, with its seller (404 otherwise). */
export const publicBundle = publicSeller.extend({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  priceAmount: z.number().int(),
  currency: z.literal(COURSE_CURRENCY),
  separateAmount: z.number().int(),
  savingAmount: z.number().int(),
  courses: z.array(z.object({ id: z.string(), title: z.string() })),
});
export type PublicBundle = z.infer<typeof publicBundle>;

/** POST /api/public/bundles/{bundleId}/checkout (no sign-in): as a course's checkout, without team seats. */
export const bundleCheckoutBody = courseCheckoutBody.omit({ seats: true });
export type BundleCheckoutBody = z.infer<typeof bundleCheckoutBody>;
