import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { creatorAnalytics, sale, saleList, type analyticsWindows, type Sale } from '@contracts/sales.ts';
import { apiClient } from '@/lib/api-client.ts';

export type AnalyticsWindow = (typeof analyticsWindows)[number];

/** Every query of this feature starts with this key, so a refund can refresh what it changed. */
const salesKey = ['sales'] as const;

/** GET /api/creator/analytics?days=: the window's revenue, sales, refunds, daily series and revenue by course. */
export const analyticsQueryOptions = (days: AnalyticsWindow) =>
  queryOptions({
    queryKey: [...salesKey, 'analytics', days] as const,
    queryFn: ({ signal }) => apiClient.get(`/api/creator/analytics?days=${days}`, creatorAnalytics, { signal }),
  });

/** The URL of one page of the creator's sales (newest first). */
export const salesUrl = (cursor?: string): string => (cursor ? `/api/sales?cursor=${encodeURIComponent(cursor)}` : '/api/sales');

/** GET /api/sales, page after page ('Load more' follows `nextCursor`). */
export const salesQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: [...salesKey, 'list'] as const,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => apiClient.get(salesUrl(pageParam), saleList, { signal }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/**
 * POST /api/sales/{orderId}/refund: the money goes back from the creator's Stripe account and the buyer's access ends.
 * The answer replaces its row in place (the list keeps its pages); the figures are read again: this feature's and the
 * creator dashboard's (its Revenue card).
 */
export function useRefundSale() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (target: Sale) => apiClient.post(`/api/sales/${encodeURIComponent(target.id)}/refund`, sale),
    onSuccess: (refunded) => {
      queryClient.setQueryData(salesQueryOptions().queryKey, (data) =>
        data && { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.map((s) => (s.id === refunded.id ? refunded : s)) })) },
      );
      void queryClient.invalidateQueries({ queryKey: [...salesKey, 'analytics'] });
      void queryClient.invalidateQueries({ queryKey: ['creator', 'stats'] });
    },
  });
}
