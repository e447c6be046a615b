import { queryOptions } from '@tanstack/react-query';
import { subscriptionResponse } from '@contracts/billing.ts';
import { aiPricesResponse, creditsResponse } from '@contracts/credits.ts';
import { apiClient } from '@/lib/api-client.ts';

/** Cache keys of the caller's billing state: the subscription and the credit account. */
export const subscriptionQueryKey = ['billing', 'subscription'] as const;
export const creditsQueryKey = ['billing', 'credits'] as const;

/** GET /api/me/subscription: `status: 'none'` when the creator never subscribed. */
export const subscriptionQueryOptions = () =>
  queryOptions({
    queryKey: subscriptionQueryKey,
    queryFn: async ({ signal }) => {
      try {
        return await apiClient.get('/api/me/subscription', subscriptionResponse, { signal });
      } catch (error) {
        // SPEC.md section 8: a subscription fetch error is logged; the screen shows its error state.
        console.error('The subscription could not be loaded', error);
        throw error;
      }
    },
  });

/**
 * GET /api/ai/prices: what each AI tool costs, as the server charges it (the card's price table). The same key as the
 * course tools' read of it (features/courses/api/use-ai-drafts.ts), so a page reads it once.
 */
export const aiPricesQueryOptions = () =>
  queryOptions({
    queryKey: ['ai', 'prices'] as const,
    queryFn: ({ signal }) => apiClient.get('/api/ai/prices', aiPricesResponse, { signal }),
    staleTime: Infinity,
  });

/** GET /api/me/credits: `null` when the creator has no credit account (no plan yet). */
export const creditsQueryOptions = () =>
  queryOptions({
    queryKey: creditsQueryKey,
    queryFn: async ({ signal }) => {
      try {
        return await apiClient.get('/api/me/credits', creditsResponse, { signal });
      } catch (error) {
        // SPEC.md section 8: a credits fetch error is logged; the card shows its error state.
        console.error('The AI credits could not be loaded', error);
        throw error;
      }
    },
  });
