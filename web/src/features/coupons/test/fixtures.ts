import type { Coupon } from '@contracts/coupons.ts';

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

export { course, courses } from '@/test/fixtures.ts';
