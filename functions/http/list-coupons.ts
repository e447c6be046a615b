import { pageQuery } from '#contracts/common.ts';
import type { CouponList } from '#contracts/coupons.ts';
import { listCoupons } from '#core/sales/coupons.ts';
import { couponRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/coupons?cursor=&limit=: the creator's coupons, newest first, a page at a time, with how often each was used. */
export const handler = httpRoute({ route: 'list-coupons', query: pageQuery }, ({ auth, query }): Promise<CouponList> => listCoupons({ coupons: couponRepository() }, auth.userId, query));
