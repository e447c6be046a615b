import { queryOptions } from '@tanstack/react-query';
import { landingPageResponse } from '@contracts/landing.ts';
import { apiClient } from '@/lib/api-client.ts';

/** Cache key of the creator's saved landing page (one per creator). */
export const landingPageQueryKey = ['landing', 'page'] as const;

/** GET /api/landing-page: the saved page with its settings and publication, `null` before the first save. */
export const landingPageQueryOptions = () =>
  queryOptions({
    queryKey: landingPageQueryKey,
    queryFn: ({ signal }) => apiClient.get('/api/landing-page', landingPageResponse, { signal }),
  });
