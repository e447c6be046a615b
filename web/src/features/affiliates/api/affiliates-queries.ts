import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import { affiliate, affiliateList, commissionList, payout, payoutExport, type AffiliateList, type CreateAffiliateBody } from '@contracts/affiliates.ts';
import { subscriptionResponse } from '@contracts/billing.ts';
import { apiClient } from '@/lib/api-client.ts';
import { IDEMPOTENCY_HEADER, newIdempotencyKey } from '@/lib/idempotency-key.ts';

const affiliatesKey = ['affiliates'] as const;
const affiliatePath = (affiliateId: string): string => `/api/affiliates/${encodeURIComponent(affiliateId)}`;
const commissionsKey = (affiliateId: string) => [...affiliatesKey, affiliateId, 'commissions'] as const;
/** The list's pages (the coupons feature's picker reads every affiliate under `['affiliates', 'picker']`). */
const listKey = [...affiliatesKey, 'list'] as const;

/** The URL of one page of the creator's affiliates (newest first). */
export const affiliatesUrl = (cursor?: string): string => (cursor ? `/api/affiliates?cursor=${encodeURIComponent(cursor)}` : '/api/affiliates');

/** GET /api/affiliates: the creator's affiliates with their figures, newest first, page after page ('Load more' follows `nextCursor`). */
export const affiliatesQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: listKey,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => apiClient.get(affiliatesUrl(pageParam), affiliateList, { signal }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/** The URL of one page of an affiliate's commissions (newest first). */
export const commissionsUrl = (affiliateId: string, cursor?: string): string =>
  `${affiliatePath(affiliateId)}/commissions${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`;

/** GET /api/affiliates/{affiliateId}/commissions: one affiliate's commissions, newest first, page after page ('Load more' follows `nextCursor`). */
export const commissionsQueryOptions = (affiliateId: string) =>
  infiniteQueryOptions({
    queryKey: commissionsKey(affiliateId),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => apiClient.get(commissionsUrl(affiliateId, pageParam), commissionList, { signal }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/** GET /api/me/subscription: which plan the creator is on (the billing feature's cache key: one request for both). */
export const planQueryOptions = () =>
  queryOptions({
    queryKey: ['billing', 'subscription'] as const,
    queryFn: ({ signal }) => apiClient.get('/api/me/subscription', subscriptionResponse, { signal }),
  });

/** POST /api/affiliates: the new affiliate joins the list at its top (409 CONFLICT on an email already in it, 403 FORBIDDEN off Pro). */
export function useCreateAffiliate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateAffiliateBody) => apiClient.post('/api/affiliates', affiliate, { body }),
    onSuccess: (created) =>
      queryClient.setQueryData<InfiniteData<AffiliateList, string | undefined>>(
        listKey,
        (data) =>
          data && { ...data, pages: data.pages.map((page, index) => ({ ...page, items: [...(index === 0 ? [created] : []), ...page.items.filter((a) => a.id !== created.id)] })) },
      ),
  });
}

/** The link to a payout's lines as a file (JSON, so the session's token can ask for it; a plain link could not send it). */
export const payoutFileUrl = (affiliateId: string, payoutId: string): string =>
  `${affiliatePath(affiliateId)}/payouts/${encodeURIComponent(payoutId)}?format=csv&delivery=link`;

/**
 * GET /api/affiliates/{affiliateId}/payouts/{payoutId}?format=csv&delivery=link: every line of the payout, written by
 * the server to a file a page at a time, as a link the browser then saves.
 */
export function useDownloadPayout() {
  return useMutation({
    mutationFn: ({ affiliateId, payoutId }: { affiliateId: string; payoutId: string }) => apiClient.get(payoutFileUrl(affiliateId, payoutId), payoutExport),
  });
}

/**
 * POST /api/affiliates/{affiliateId}/payouts: the approved commissions marked paid, and the payout's id (its file:
 * useDownloadPayout).
 * Each call is a new intent with its own Idempotency-Key (the server applies one key once). The list's figures and
 * the affiliate's commissions are loaded again afterwards, in the background (the server moved them, also when it
 * refused: another tab may have paid them).
 */
export function usePayOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (affiliateId: string) =>
      apiClient.post(`${affiliatePath(affiliateId)}/payouts`, payout, { headers: { [IDEMPOTENCY_HEADER]: newIdempotencyKey() } }),
    onSettled: (_, __, affiliateId) => {
      void queryClient.invalidateQueries({ queryKey: listKey });
      void queryClient.invalidateQueries({ queryKey: commissionsKey(affiliateId) });
    },
  });
}
