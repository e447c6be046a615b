import * as z from 'zod';
import { isoDate } from './common.ts';

/**
 * A creator's affiliates: people who send buyers through their own link and earn a share of what those buyers pay
 * (API.md "Affiliates"; docs/api.md "Affiliates"; decision 0018). Pro plan. Money in pence.
 */

export const AFFILIATE_DEFAULT_COOKIE_DAYS = 30;
export const AFFILIATE_DEFAULT_HOLD_DAYS = 30;
export const AFFILIATES_PER_CREATOR_MAX = 500;
/** The name of the first-party cookie the link sets: `<code>.<clickId>` (the click is kept, so its window is checked on our side). */
export const REF_COOKIE = 'ref';

/** POST /api/affiliates. */
export const createAffiliateBody = z.strictObject({
  email: z.email().max(254).transform((email) => email.toLowerCase()),
  name: z.string().trim().min(1, 'Give the affiliate a name.').max(100),
  /** Percent of what the buyer actually paid (after any discount): 1 to 90. */
  commissionPercent: z.number().min(1).max(90),
  /** How long a click's `ref` cookie lasts: 1 to 365 days. */
  cookieDays: z.number().int().min(1).max(365).default(AFFILIATE_DEFAULT_COOKIE_DAYS),
  /** How long a commission waits, refundable, before it is approved: 0 to 90 days. */
  holdDays: z.number().int().min(0).max(90).default(AFFILIATE_DEFAULT_HOLD_DAYS),
});
export type CreateAffiliateBody = z.input<typeof createAffiliateBody>;

const pence = z.number().int();

/** One affiliate with its figures (sums of its commissions, moved in the transactions that move them). */
export const affiliate = z.object({
  id: z.string(),
  /** The public code in the link (8 letters and digits). */
  code: z.string(),
  /** The link to share: the redirect with `to` on the creator's public page (or the home page without one). */
  link: z.string(),
  name: z.string(),
  email: z.string(),
  commissionPercent: z.number(),
  cookieDays: z.number().int(),
  holdDays: z.number().int(),
  clicks: z.number().int().min(0),
  /** Paid orders credited to the affiliate. */
  sales: z.number().int().min(0),
  /** Commissions in their hold (a refund still voids them), approved (due to be paid) and paid out, in pence. */
  pending: pence,
  approved: pence,
  paid: pence,
  /** Paid commissions whose order was refunded or disputed afterwards: what the affiliate owes back, in pence. */
  clawedBack: pence,
  createdAt: isoDate,
});
export type Affiliate = z.infer<typeof affiliate>;
/** GET /api/affiliates?cursor=&limit=: newest first, a page at a time (`nextCursor` null on the last). */
export const affiliateList = z.object({ items: z.array(affiliate), nextCursor: z.string().nullable() });
export type AffiliateList = z.infer<typeof affiliateList>;

export const commissionStatuses = ['pending', 'approved', 'void', 'paid'] as const;
export type CommissionStatus = (typeof commissionStatuses)[number];

/** One commission: an affiliate's share of one paid order. */
export const commission = z.object({
  orderId: z.string(),
  courseTitle: z.string(),
  /** What the buyer paid (pence) and the affiliate's share of it. */
  orderAmount: pence,
  amount: pence,
  status: z.enum(commissionStatuses),
  /** When the hold ends and the daily job approves it (a voided one keeps the date it had). */
  approveAt: isoDate,
  createdAt: isoDate,
  paidAt: isoDate.nullable(),
  /** A paid commission whose order was refunded or disputed afterwards (recorded; the affiliate owes it back). */
  clawback: z.boolean(),
});
export type Commission = z.infer<typeof commission>;
/** GET /api/affiliates/{affiliateId}/commissions?cursor=&limit=: newest first, a page at a time (`nextCursor` null on the last). */
export const commissionList = z.object({ items: z.array(commission), nextCursor: z.string().nullable() });
export type CommissionList = z.infer<typeof commissionList>;

/**
 * POST /api/affiliates/{affiliateId}/payouts: the approved commissions marked paid, and what to pay. Its size never
 * grows with the payout (issue 28): the order by order lines are a file, GET .../payouts/{payoutId}?format=csv.
 */
export const payout = z.object({
  /** The payout's id (its lines' file: payoutExport); null when nothing was due (no payout was made). */
  payoutId: z.string().nullable(),
  paidAmount: pence,
  /** How many commissions the payout took. */
  commissions: z.number().int().min(0),
  /**
   * What to pay, `affiliate,email,amount,commissions,payoutId`: one row (amount in pounds; the payout id as the
   * transfer's reference); the header alone when nothing was due.
   */
  csv: z.string(),
});
export type Payout = z.infer<typeof payout>;

/**
 * GET /api/affiliates/{affiliateId}/payouts/{payoutId}: `format` csv (the only one: every line of the payout, written
 * to storage a page at a time); `delivery` 'file' (default) answers a redirect to the file, 'link' its link as JSON.
 */
export const payoutExportQuery = z.strictObject({
  format: z.enum(['csv']).default('csv'),
  delivery: z.enum(['file', 'link']).default('file'),
});

/**
 * GET /api/affiliates/{affiliateId}/payouts/{payoutId}?format=csv&delivery=link: `url` downloads the payout's lines
 * (`affiliate,email,orderId,amount,paidAt`, one row per commission paid) until `expiresAt`; `rows` is how many it holds.
 */
export const payoutExport = z.object({ url: z.url(), expiresAt: z.string(), rows: z.number().int().min(0) });
export type PayoutExport = z.infer<typeof payoutExport>;

/** The redirect's query: `to` is a path on the app's own origin (an absolute URL there is accepted too). */
export const referralQuery = z.object({ to: z.string().max(2000).optional() });
