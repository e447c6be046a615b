import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod';
import { affiliateList } from '@contracts/affiliates.ts';
import { coupon, couponList, type Coupon, type CouponList, type CreateCouponBody, type UpdateCouponBody } from '@contracts/coupons.ts';
import { courseList } from '@contracts/courses.ts';
import { apiClient } from '@/lib/api-client.ts';

const couponsKey = ['coupons'] as const;
const couponPath = (code: string): string => `/api/coupons/${encodeURIComponent(code)}`;

/** GET /api/coupons: the creator's coupons. */
export const couponsQueryOptions = () =>
  queryOptions({
    queryKey: couponsKey,
    queryFn: ({ signal }) => apiClient.get('/api/coupons', couponList, { signal }),
  });

/** GET /api/courses: the creator's courses, to name a coupon's courses and to choose them (the courses feature's cache key). */
export const creatorCoursesQueryOptions = () =>
  queryOptions({
    queryKey: ['courses', 'list'] as const,
    queryFn: ({ signal }) => apiClient.get('/api/courses', courseList, { signal }),
  });

/** GET /api/affiliates: the affiliates a coupon can credit (the affiliates feature's cache key). */
export const affiliatesQueryOptions = () =>
  queryOptions({
    queryKey: ['affiliates'] as const,
    queryFn: ({ signal }) => apiClient.get('/api/affiliates', affiliateList, { signal }),
  });

/** The loaded list with `change` applied, when it is loaded. */
function useEditList() {
  const queryClient = useQueryClient();
  return (change: (items: Coupon[]) => Coupon[]) =>
    queryClient.setQueryData<CouponList>(couponsKey, (data) => data && { ...data, items: change(data.items) });
}

/** POST /api/coupons: the new coupon joins the list at its top (409 CONFLICT on a code in use, PAYOUTS_NOT_READY without Stripe). */
export function useCreateCoupon() {
  const edit = useEditList();
  return useMutation({
    mutationFn: (body: CreateCouponBody) => apiClient.post('/api/coupons', coupon, { body }),
    onSuccess: (created) => edit((items) => [created, ...items.filter((c) => c.code !== created.code)]),
  });
}

/** PATCH /api/coupons/{code}: the answer replaces its row in place. */
export function useUpdateCoupon() {
  const edit = useEditList();
  return useMutation({
    mutationFn: ({ code, body }: { code: string; body: UpdateCouponBody }) => apiClient.patch(couponPath(code), coupon, { body }),
    onSuccess: (updated) => edit((items) => items.map((c) => (c.code === updated.code ? updated : c))),
  });
}

/** DELETE /api/coupons/{code} (204): the row leaves the list. */
export function useDeleteCoupon() {
  const edit = useEditList();
  return useMutation({
    mutationFn: (code: string) => apiClient.delete(couponPath(code), z.null()),
    onSuccess: (_, code) => edit((items) => items.filter((c) => c.code !== code)),
  });
}
