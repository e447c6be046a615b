import { deleteCoupon } from '#core/sales/coupons.ts';
import { couponDeps } from '#functions/composition/deps-payments.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** DELETE /api/coupons/{code}: 204; the coupon and its Stripe twin go (its code stops working at once). */
export const handler = httpRoute({ route: 'delete-coupon' }, async ({ auth, params }): Promise<Reply> => {
  await deleteCoupon(couponDeps(), { creatorId: auth.userId, code: params['code'] ?? '' });
  return new Reply(204, null);
});
