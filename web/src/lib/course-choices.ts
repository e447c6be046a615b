import { queryOptions } from '@tanstack/react-query';
import { courseList } from '@contracts/courses.ts';
import { apiClient } from './api-client.ts';

/**
 * GET /api/courses as the course pickers read it (the CRM's course filter, a coupon's courses, an affiliate's link):
 * the creator's courses, up to 100 at once. One definition for every picker (features may not import each other,
 * so it lives here, beside the API client): its cache key is under the courses feature's `['courses']`, so every
 * course change (which invalidates `courseKeys.all`) refreshes the pickers too; and it is not the courses screen's
 * key (`['courses', 'list']`, whose entry holds pages, not a list).
 */
export const courseChoicesQueryOptions = () =>
  queryOptions({
    queryKey: ['courses', 'choices'] as const,
    queryFn: ({ signal }) => apiClient.get('/api/courses?limit=100', courseList, { signal }),
  });
