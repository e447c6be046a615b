import { queryOptions } from '@tanstack/react-query';
import { adminStats } from '@contracts/admin.ts';
import { apiClient } from '@/lib/api-client.ts';

/** GET /api/admin/stats: the platform figures, trend weeks and recent activity (admin only). */
export const adminStatsQueryOptions = () =>
  queryOptions({
    queryKey: ['admin', 'stats'] as const,
    queryFn: ({ signal }) => apiClient.get('/api/admin/stats', adminStats, { signal }),
  });
