import { type Coupon, updateCouponBody } from '#contracts/coupons.ts';
import { updateCoupon } from '#core/sales/coupons.ts';
import { couponDeps } from '#functions/composition/deps-payments.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** PATCH /api/coupons/{code}: on or off, or new limits; Stripe's twin follows. */
export const handler = httpRoute({ route: 'update-coupon', body: updateCouponBody }, ({ auth, body, params }): Promise<Coupon> =>
  updateCoupon(couponDeps(), { creatorId: auth.userId, code: params['code'] ?? '', body }),
);
