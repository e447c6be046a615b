import * as z from 'zod';
import { isoDate } from './common.ts';
import { COUPON_CODE_PATTERN } from './sales.ts';

/** A creator's coupons for their courses (API.md "Selling courses"; docs/api.md "Coupons"). */

export const couponKinds = ['percent', 'amount'] as const;
export const COUPONS_PER_CREATOR_MAX = 200;

const code = z
  .string()
  .trim()
  .transform((value) => value.toUpperCase())
  .pipe(z.string().regex(COUPON_CODE_PATTERN, 'A code is 3 to 32 letters, digits, "_" or "-".'));

/** POST /api/coupons. `value`: a whole percent 1-100, or pence off (at least 1). `courseIds` null: all the creator's courses. */
export const createCouponBody = z
  .strictObject({
    code,
    kind: z.enum(couponKinds),
    value: z.number().int().min(1),
    courseIds: z.array(z.string().min(1).max(100)).min(1).max(100).nullable(),
    maxRedemptions: z.number().int().min(1).max(1_000_000).optional(),
    expiresAt: isoDate.optional(),
    /** One of the creator's affiliates: a sale with this coupon is credited to them, cookie or not. */
    affiliateId: z.string().min(1).max(100).optional(),
  })
  .refine((body) => body.kind !== 'percent' || body.value <= 100, { message: 'A percent off is 1 to 100.', path: ['value'] })
  .refine((body) => body.kind !== 'amount' || body.value <= 1_000_000, { message: 'An amount off goes up to £10,000.', path: ['value'] });
export type CreateCouponBody = z.infer<typeof createCouponBody>;

/** PATCH /api/coupons/{code}: switch it on or off, or change its limits (a new cap cannot be below what was redeemed). */
export const updateCouponBody = z
  .strictObject({
    active: z.boolean().optional(),
    maxRedemptions: z.number().int().min(1).max(1_000_000).nullable().optional(),
    expiresAt: isoDate.nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'Send at least one of active, maxRedemptions, expiresAt.');
export type UpdateCouponBody = z.infer<typeof updateCouponBody>;

export const coupon = z.object({
  code: z.string(),
  kind: z.enum(couponKinds),
  value: z.number().int(),
  courseIds: z.array(z.string()).nullable(),
  maxRedemptions: z.number().int().nullable(),
  expiresAt: isoDate.nullable(),
  /** Paid orders that used it (counted by the webhook, once each). */
  redeemed: z.number().int().min(0),
  active: z.boolean(),
  /** The affiliate it credits, or null. */
  affiliateId: z.string().nullable(),
  createdAt: isoDate,
});
export type Coupon = z.infer<typeof coupon>;
/** GET /api/coupons?cursor=&limit=: newest first, a page at a time (`nextCursor` null on the last). */
export const couponList = z.object({ items: z.array(coupon), nextCursor: z.string().nullable() });
export type CouponList = z.infer<typeof couponList>;

/** The discount a coupon gives on a price (pence), never more than the price. */
export const discountOf = (c: Pick<Coupon, 'kind' | 'value'>, price: number): number =>
  Math.min(price, c.kind === 'percent' ? Math.round((price * c.value) / 100) : c.value);
