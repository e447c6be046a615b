import * as z from 'zod';
import { isoDate } from './common.ts';
import { publicSeller } from './bundles.ts';
import { COURSE_CURRENCY } from './courses.ts';

/**
 * Memberships (issue 34 point 2; API.md "Bundles and memberships"; docs/api.md "Memberships"): a Pro creator's monthly
 * or yearly price on their own Stripe account giving access to chosen courses, or to all of them ("all": every
 * published course of the creator, including ones published later). Shared with the web app.
 */

export const MEMBERSHIPS_PER_CREATOR_MAX = 20;
/** Stripe's largest single charge in GBP (£999,999.99), as a course's price; at least £1 a period. */
export const MEMBERSHIP_PRICE_MIN = 100;
export const MEMBERSHIP_PRICE_MAX = 99_999_999;
export const membershipIntervals = ['month', 'year'] as const;
export type MembershipInterval = (typeof membershipIntervals)[number];

const courseIds = z.union([
  z.literal('all'),
  z
    .array(z.string().min(1).max(100))
    .min(1, 'A membership gives at least one course.')
    .max(200)
    .refine((ids) => new Set(ids).size === ids.length, 'A course is in a membership once.'),
]);

/** POST /api/memberships (Pro). */
export const createMembershipBody = z.strictObject({
  title: z.string().trim().min(1).max(200),
  description: z.string().trim().max(5000).optional(),
  interval: z.enum(membershipIntervals),
  priceAmount: z.number().int().min(MEMBERSHIP_PRICE_MIN).max(MEMBERSHIP_PRICE_MAX),
  courseIds,
});
export type CreateMembershipBody = z.infer<typeof createMembershipBody>;

/**
 * PATCH /api/memberships/{membershipId}: the title, description, courses and `active` (false: off sale, its page 404;
 * members keep it until their subscriptions end). The price and interval are the subscriptions' own: a new price is a
 * new membership.
 */
export const updateMembershipBody = z
  .strictObject({
    title: z.string().trim().min(1).max(200).optional(),
    description: z.string().trim().max(5000).optional(),
    courseIds: courseIds.optional(),
    active: z.boolean().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Send at least one of title, description, courseIds, active.');
export type UpdateMembershipBody = z.infer<typeof updateMembershipBody>;

/** What a membership sells, as its creator and its buyers see it alike. */
const membershipOffer = {
  id: z.string(),
  title: z.string(),
  description: z.string(),
  interval: z.enum(membershipIntervals),
  priceAmount: z.number().int(),
  currency: z.literal(COURSE_CURRENCY),
};

export const membership = z.object({
  ...membershipOffer,
  courseIds: z.union([z.literal('all'), z.array(z.string())]),
  active: z.boolean(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Membership = z.infer<typeof membership>;
export const membershipList = z.object({ items: z.array(membership) });
export type MembershipList = z.infer<typeof membershipList>;

/** GET /api/public/memberships/{membershipId}: as a bundle (its seller too), with `interval`; the courses it gives now. */
export const publicMembership = publicSeller.extend({
  ...membershipOffer,
  allCourses: z.boolean(),
  courses: z.array(z.object({ id: z.string(), title: z.string() })),
});
export type PublicMembership = z.infer<typeof publicMembership>;

/** POST /api/public/memberships/{membershipId}/checkout (no sign-in). */
export const membershipCheckoutBody = z.strictObject({
  successUrl: z.url({ protocol: /^https?$/ }).max(2000),
  cancelUrl: z.url({ protocol: /^https?$/ }).max(2000),
  email: z.email().max(254).transform((email) => email.toLowerCase()).optional(),
});
export type MembershipCheckoutBody = z.infer<typeof membershipCheckoutBody>;

/** A member's subscription as Stripe last said it (`canceled`: ended for good; a new subscription is a new row). */
export const memberStatuses = ['incomplete', 'trialing', 'active', 'past_due', 'unpaid', 'canceled'] as const;
export type MemberStatus = (typeof memberStatuses)[number];

/** GET /api/memberships/{membershipId}/members?cursor=: one row a subscription. */
export const memberList = z.object({
  items: z.array(
    z.object({
      email: z.string(),
      status: z.enum(memberStatuses),
      currentPeriodEnd: isoDate.nullable(),
      cancelAtPeriodEnd: z.boolean(),
    }),
  ),
  nextCursor: z.string().nullable(),
  /**
   * Over every subscription, not the page: paying ones now (active, on trial, or past due while Stripe retries), the
   * monthly recurring revenue they make (a yearly price over 12), and the subscriptions that ended in the last 30 days.
   */
  figures: z.object({ paying: z.number().int(), mrrAmount: z.number().int(), endedLast30Days: z.number().int() }),
});
export type MemberList = z.infer<typeof memberList>;

/** A subscription that pays now, and so counts in MRR: active or on trial, or past due while Stripe retries. */
export const isPayingStatus = (status: MemberStatus): boolean => status === 'active' || status === 'trialing' || status === 'past_due';

/** Pence a month of one subscription: a yearly price over 12, rounded to the penny. */
export const monthlyAmount = (priceAmount: number, interval: MembershipInterval): number => (interval === 'month' ? priceAmount : Math.round(priceAmount / 12));

/** How far back the members' figures count ended subscriptions. */
export const CHURN_WINDOW_DAYS = 30;

/** POST /api/learner/memberships/{membershipId}/portal. */
export const membershipPortalBody = z.strictObject({ returnUrl: z.url({ protocol: /^https?$/ }).max(2000) });
export type MembershipPortalBody = z.infer<typeof membershipPortalBody>;

/**
 * GET /api/learner/memberships: the memberships the learner holds now (a subscription that gives access), each with
 * what its card on the dashboard says; 'Manage membership' posts to its portal route.
 */
export const learnerMembershipList = z.object({
  items: z.array(
    z.object({
      membershipId: z.string(),
      title: z.string(),
      /** Null (with the price) for a membership its creator deleted while the subscription runs on. */
      interval: z.enum(membershipIntervals).nullable(),
      priceAmount: z.number().int().nullable(),
      status: z.enum(memberStatuses),
      currentPeriodEnd: isoDate.nullable(),
      cancelAtPeriodEnd: z.boolean(),
    }),
  ),
});
export type LearnerMembershipList = z.infer<typeof learnerMembershipList>;
