import { queryOptions, useMutation } from '@tanstack/react-query';
import { courseList } from '@contracts/courses.ts';
import { courseReport, creatorExport, type ExportKind } from '@contracts/reports.ts';
import { apiClient } from '@/lib/api-client.ts';

/** GET /api/courses: the creator's courses, the report's course picker (the course pickers' shared cache key). */
export const reportCoursesQueryOptions = () =>
  queryOptions({
    queryKey: ['courses', 'choices'] as const,
    queryFn: ({ signal }) => apiClient.get('/api/courses?limit=100', courseList, { signal }),
  });

/** GET /api/creator/reports/courses/{courseId}: the course's figures, funnel and quizzes (Pro). */
export const courseReportQueryOptions = (courseId: string) =>
  queryOptions({
    queryKey: ['reports', 'course', courseId] as const,
    queryFn: ({ signal }) => apiClient.get(`/api/creator/reports/courses/${encodeURIComponent(courseId)}`, courseReport, { signal }),
  });

/** GET /api/creator/exports/{kind}?format=csv&delivery=link: every row, written by the server a page at a time, as a link to the file. */
export function useExport() {
  return useMutation({
    mutationFn: (kind: ExportKind) => apiClient.get(`/api/creator/exports/${kind}?format=csv&delivery=link`, creatorExport),
  });
}
