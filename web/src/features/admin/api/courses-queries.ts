import { infiniteQueryOptions } from '@tanstack/react-query';
import { adminCourseList } from '@contracts/admin-courses.ts';
import { apiClient } from '@/lib/api-client.ts';

/** GET /api/admin/courses, page after page ('Load more' follows `nextCursor`): every creator's courses, newest first. */
export const adminCoursesQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: ['admin', 'courses'] as const,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      apiClient.get(pageParam ? `/api/admin/courses?${new URLSearchParams({ cursor: pageParam }).toString()}` : '/api/admin/courses', adminCourseList, { signal }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
