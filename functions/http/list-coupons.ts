import type { CouponList } from '#contracts/coupons.ts';
import { listCoupons } from '#core/sales/coupons.ts';
import { couponRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/coupons: the creator's coupons, newest first, with how often each was used. */
export const handler = httpRoute({ route: 'list-coupons' }, ({ auth }): Promise<CouponList> => listCoupons({ coupons: couponRepository() }, auth.userId));
