import { queryOptions } from '@tanstack/react-query';
import { creatorStats } from '@contracts/courses.ts';
import { apiClient } from '@/lib/api-client.ts';

/** GET /api/creator/stats: the dashboard's figures. The courses feature invalidates this key after every change. */
export const creatorStatsQueryOptions = () =>
  queryOptions({
    queryKey: ['creator', 'stats'] as const,
    queryFn: ({ signal }) => apiClient.get('/api/creator/stats', creatorStats, { signal }),
  });
