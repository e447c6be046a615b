import { infiniteQueryOptions } from '@tanstack/react-query';
import { auditPage, type AuditAction } from '@contracts/audit.ts';
import { apiClient } from '@/lib/api-client.ts';

/** GET /api/admin/audit, page after page ('Load more' follows `nextCursor`): the admin audit log, newest first, of every action or one. */
export const adminAuditQueryOptions = (action: AuditAction | undefined) =>
  infiniteQueryOptions({
    queryKey: ['admin', 'audit', action ?? 'all'] as const,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ ...(action ? { action } : {}), ...(pageParam ? { cursor: pageParam } : {}) }).toString();
      return apiClient.get(query ? `/api/admin/audit?${query}` : '/api/admin/audit', auditPage, { signal });
    },
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
