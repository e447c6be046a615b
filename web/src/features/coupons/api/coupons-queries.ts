import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import * as z from 'zod';
import { affiliateList, type AffiliateList } from '@contracts/affiliates.ts';
import { coupon, couponList, type Coupon, type CouponList, type CreateCouponBody, type UpdateCouponBody } from '@contracts/coupons.ts';
import { apiClient } from '@/lib/api-client.ts';

const couponsKey = ['coupons'] as const;
const couponPath = (code: string): string => `/api/coupons/${encodeURIComponent(code)}`;

/** The URL of one page of the creator's coupons (newest first). */
export const couponsUrl = (cursor?: string): string => (cursor ? `/api/coupons?cursor=${encodeURIComponent(cursor)}` : '/api/coupons');

/** GET /api/coupons: the creator's coupons, newest first, page after page ('Load more' follows `nextCursor`). */
export const couponsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: couponsKey,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => apiClient.get(couponsUrl(pageParam), couponList, { signal }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/**
 * GET /api/affiliates: every affiliate a coupon can credit, for the picker: page after page of 100 (a creator has at
 * most AFFILIATES_PER_CREATOR_MAX, so a few requests at most).
 */
export const affiliatesQueryOptions = () =>
  queryOptions({
    queryKey: ['affiliates', 'picker'] as const,
    queryFn: async ({ signal }) => {
      const items: AffiliateList['items'] = [];
      let cursor: string | null = null;
      do {
        const page: AffiliateList = await apiClient.get(`/api/affiliates?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, affiliateList, { signal });
        items.push(...page.items);
        cursor = page.nextCursor;
      } while (cursor);
      return { items, nextCursor: null };
    },
  });

/** The loaded pages with `change` applied to each (`first` also to the first page: where a new coupon goes), when they are loaded. */
function useEditList() {
  const queryClient = useQueryClient();
  return (change: (items: Coupon[]) => Coupon[], first: (items: Coupon[]) => Coupon[] = change) =>
    queryClient.setQueryData<InfiniteData<CouponList, string | undefined>>(
      couponsKey,
      (data) => data && { ...data, pages: data.pages.map((page, index) => ({ ...page, items: (index === 0 ? first : change)(page.items) })) },
    );
}

/** POST /api/coupons: the new coupon joins the list at its top (409 CONFLICT on a code in use, PAYOUTS_NOT_READY without Stripe). */
export function useCreateCoupon() {
  const edit = useEditList();
  return useMutation({
    mutationFn: (body: CreateCouponBody) => apiClient.post('/api/coupons', coupon, { body }),
    onSuccess: (created) =>
      edit(
        (items) => items.filter((c) => c.code !== created.code),
        (items) => [created, ...items.filter((c) => c.code !== created.code)],
      ),
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
