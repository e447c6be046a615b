import { createCouponBody } from '#contracts/coupons.ts';
import { createCoupon } from '#core/sales/coupons.ts';
import { couponDeps } from '#functions/composition/deps-payments.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/coupons: 201 and the coupon, mirrored as a promotion code on the creator's Stripe account. */
export const handler = httpRoute({ route: 'create-coupon', body: createCouponBody }, async ({ auth, body }): Promise<Reply> =>
  new Reply(201, await createCoupon(couponDeps(), { creatorId: auth.userId, body })),
);
