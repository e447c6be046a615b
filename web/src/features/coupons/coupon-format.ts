import type { Coupon } from '@contracts/coupons.ts';
import { formatDay } from '@/lib/format-date.ts';
import { formatPounds } from '@/lib/format-money.ts';

/** '20% off', '£5 off'. */
export const discountLabel = (c: Pick<Coupon, 'kind' | 'value'>): string => (c.kind === 'percent' ? `${c.value}% off` : `${formatPounds(c.value)} off`);

/** The titles of a coupon's courses, in the coupon's order; a course since deleted is named as such. */
export const courseTitles = (courseIds: string[], titles: ReadonlyMap<string, string>): string[] =>
  courseIds.map((id) => titles.get(id) ?? 'A deleted course');

/** '3 / 50' against a cap, '3' without one. */
export const usedLabel = (c: Pick<Coupon, 'redeemed' | 'maxRedemptions'>): string =>
  c.maxRedemptions === null ? c.redeemed.toLocaleString('en-GB') : `${c.redeemed.toLocaleString('en-GB')} / ${c.maxRedemptions.toLocaleString('en-GB')}`;

export const isExpired = (c: Pick<Coupon, 'expiresAt'>, now: Date = new Date()): boolean => c.expiresAt !== null && new Date(c.expiresAt) <= now;
export const isUsedUp = (c: Pick<Coupon, 'redeemed' | 'maxRedemptions'>): boolean => c.maxRedemptions !== null && c.redeemed >= c.maxRedemptions;

/** The last day a coupon works ('31 Dec 2026'), or 'Never'. */
export const expiresLabel = (c: Pick<Coupon, 'expiresAt'>): string => (c.expiresAt === null ? 'Never' : formatDay(c.expiresAt));


