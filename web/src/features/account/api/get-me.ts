import { queryOptions, useQuery } from '@tanstack/react-query';
import { meResponse } from '@contracts/me.ts';
import { apiClient } from '@/lib/api-client.ts';

export const meQueryOptions = () =>
  queryOptions({
    queryKey: ['me'],
    queryFn: ({ signal }) => apiClient.get('/api/me', meResponse, { signal }),
  });

/** The signed-in user's profile (`GET /api/me`): id, email, role, createdAt. */
export const useMe = () => useQuery(meQueryOptions());
