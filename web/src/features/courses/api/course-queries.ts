import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { courseCertificateList } from '@contracts/certificates.ts';
import { course, courseEnrollmentList, courseList } from '@contracts/courses.ts';
import { integrationsView } from '@contracts/integrations.ts';
import { licenseList } from '@contracts/licenses.ts';
import { liveSessionList } from '@contracts/live-sessions.ts';
import { apiClient } from '@/lib/api-client.ts';

/**
 * Cache keys of the creator's courses: every course mutation invalidates `courseKeys.all` (list, course, learners, licences,
 * certificates, and the other features' course pickers: lib/course-choices.ts, `['courses', 'choices']`).
 */
export const courseKeys = {
  all: ['courses'] as const,
  list: () => [...courseKeys.all, 'list'] as const,
  detail: (courseId: string) => [...courseKeys.all, 'detail', courseId] as const,
  learners: (courseId: string) => [...courseKeys.all, 'learners', courseId] as const,
  licenses: (courseId: string) => [...courseKeys.all, 'licenses', courseId] as const,
  certificates: (courseId: string) => [...courseKeys.all, 'certificates', courseId] as const,
  sessions: (courseId: string) => [...courseKeys.all, 'sessions', courseId] as const,
};

/** GET /api/courses: the creator's own courses, newest first, page after page ('Load more' follows `nextCursor`). */
export const coursesQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: courseKeys.list(),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => apiClient.get(pageParam ? `/api/courses?cursor=${encodeURIComponent(pageParam)}` : '/api/courses', courseList, { signal }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/** GET /api/courses/{courseId}: the course with its lessons in order (404 for another creator's). */
export const courseQueryOptions = (courseId: string) =>
  queryOptions({
    queryKey: courseKeys.detail(courseId),
    queryFn: ({ signal }) => apiClient.get(`/api/courses/${encodeURIComponent(courseId)}`, course, { signal }),
  });

/** GET /api/courses/{courseId}/enrollments: the course's learners with their progress (first page). */
export const courseLearnersQueryOptions = (courseId: string) =>
  queryOptions({
    queryKey: courseKeys.learners(courseId),
    queryFn: ({ signal }) => apiClient.get(`/api/courses/${encodeURIComponent(courseId)}/enrollments`, courseEnrollmentList, { signal }),
  });

/** The URL of one page of a course's licences (newest first). */
export const courseLicensesUrl = (courseId: string, cursor?: string): string =>
  `/api/courses/${encodeURIComponent(courseId)}/licenses${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`;

/** GET /api/courses/{courseId}/licenses: the course's team licences, granted or bought, newest first, page after page ('Load more'). */
export const courseLicensesQueryOptions = (courseId: string) =>
  infiniteQueryOptions({
    queryKey: courseKeys.licenses(courseId),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => apiClient.get(courseLicensesUrl(courseId, pageParam), licenseList, { signal }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/** The URL of one page of a course's certificates (newest first). */
export const courseCertificatesUrl = (courseId: string, cursor?: string): string =>
  `/api/courses/${encodeURIComponent(courseId)}/certificates${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`;

/** GET /api/courses/{courseId}/certificates: the certificates the course's learners earned, newest first, page after page ('Load more'). */
export const courseCertificatesQueryOptions = (courseId: string) =>
  infiniteQueryOptions({
    queryKey: courseKeys.certificates(courseId),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => apiClient.get(courseCertificatesUrl(courseId, pageParam), courseCertificateList, { signal }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/** GET /api/courses/{courseId}/sessions: every live session of the course (scheduled and cancelled, past and ahead), soonest first. */
export const courseSessionsQueryOptions = (courseId: string) =>
  queryOptions({
    queryKey: courseKeys.sessions(courseId),
    queryFn: ({ signal }) => apiClient.get(`/api/courses/${encodeURIComponent(courseId)}/sessions`, liveSessionList, { signal }),
  });

/**
 * GET /api/integrations, for the providers a session may use (those `connected`). The integrations feature's own key
 * (`['integrations']`, same request and schema; features may not import each other): one cache for both screens.
 */
export const integrationsStatusQueryOptions = () =>
  queryOptions({
    queryKey: ['integrations'] as const,
    queryFn: ({ signal }) => apiClient.get('/api/integrations', integrationsView, { signal }),
  });
