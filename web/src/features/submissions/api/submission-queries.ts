import { infiniteQueryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { fileUrlResponse } from '@contracts/files.ts';
import { submission, submissionList, SUBMISSIONS_PAGE, type GradeSubmissionBody, type SubmissionStatus } from '@contracts/submissions.ts';
import { apiClient } from '@/lib/api-client.ts';
import { ApiError } from '@/lib/api-error.ts';
import { startQueues, takeOldest, type CourseQueue } from './merge-queues.ts';

/**
 * The creator's Submissions queue (issue 35 point 2; docs/api.md "Assignments"). The API lists one course's queue at a
 * time (GET /api/courses/{id}/submissions?status=&cursor=, by key, oldest first): one course is read page by page as
 * the server pages it; "All courses" merges the courses' queues oldest first (merge-queues.ts), reading each course
 * only as far as the pages shown need. No cross-course route, no scan.
 */
export const submissionKeys = {
  all: ['submissions'] as const,
  queue: (courseIds: string[], status: SubmissionStatus) => [...submissionKeys.all, 'queue', status, ...courseIds] as const,
};

const queueUrl = (courseId: string, status: SubmissionStatus, cursor?: string) =>
  `/api/courses/${encodeURIComponent(courseId)}/submissions?status=${status}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;

/** The submissions of these courses with this status, 20 a page, oldest first ('Load more' goes on where it stopped). */
export const submissionsQueryOptions = (courseIds: string[], status: SubmissionStatus) =>
  infiniteQueryOptions({
    queryKey: submissionKeys.queue(courseIds, status),
    initialPageParam: startQueues(courseIds),
    queryFn: ({ pageParam, signal }) =>
      takeOldest(pageParam, (courseId, cursor) => apiClient.get(queueUrl(courseId, status, cursor), submissionList, { signal }), SUBMISSIONS_PAGE),
    getNextPageParam: (page): CourseQueue[] | undefined => page.queues ?? undefined,
  });

/**
 * POST /api/submissions/{id}/grade: passed, or needs revision with feedback (the server emails the learner). Every
 * queue is read again afterwards: the submission has left the one it was in. A 409 (graded meanwhile, or a newer
 * submission took its place) reloads them too, so the list shows where things stand.
 */
export function useGradeSubmission(submissionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: GradeSubmissionBody) => apiClient.post(`/api/submissions/${encodeURIComponent(submissionId)}/grade`, submission, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: submissionKeys.all }),
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) void queryClient.invalidateQueries({ queryKey: submissionKeys.all });
    },
  });
}

/**
 * A signed download URL of a file handed in with a submission (served as an attachment). The route comes with learner
 * uploads (issue 35 point 2, files): until then no submission has files, so nothing asks for it.
 */
export const submissionFileUrl = (submissionId: string, fileId: string) =>
  apiClient.get(`/api/submissions/${encodeURIComponent(submissionId)}/files/${encodeURIComponent(fileId)}/url`, fileUrlResponse);
