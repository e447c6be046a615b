import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient, type InfiniteData } from '@tanstack/react-query';
import {
  crmLearnerDetails,
  crmLearnerList,
  recommendationResponse,
  savedNotes,
  type CrmLearnerDetails,
  type CrmLearnerList,
} from '@contracts/courses.ts';
import { toast } from '@/components/ui/toaster.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { apiClient } from '@/lib/api-client.ts';
import { crmMessages as m } from '../crm-messages.ts';

const learnersPath = '/api/crm/learners';
const learnerPath = (learnerId: string) => `${learnersPath}/${encodeURIComponent(learnerId)}`;

/** The URL of one page of the CRM list: the server's order (newest enrolment first), optionally one course's. */
export function crmLearnersUrl({ courseId, cursor }: { courseId?: string | undefined; cursor?: string | undefined }): string {
  const query = new URLSearchParams();
  if (courseId) query.set('courseId', courseId);
  if (cursor) query.set('cursor', cursor);
  const search = query.toString();
  return search ? `${learnersPath}?${search}` : learnersPath;
}

/**
 * GET /api/crm/learners, page after page ('Load more' follows `nextCursor`). One key per course filter, so
 * switching the filter back shows the rows already loaded.
 */
export const crmLearnersQueryOptions = (courseId?: string) =>
  infiniteQueryOptions({
    queryKey: ['crm', 'learners', courseId ?? 'all'] as const,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) => apiClient.get(crmLearnersUrl({ courseId, cursor: pageParam }), crmLearnerList, { signal }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

/** GET /api/crm/learners/{id}: the details panel (progress per course, notes, timeline). */
export const crmLearnerQueryOptions = (learnerId: string) =>
  queryOptions({
    queryKey: ['crm', 'learner', learnerId] as const,
    queryFn: ({ signal }) => apiClient.get(learnerPath(learnerId), crmLearnerDetails, { signal }),
  });

/**
 * PUT /api/crm/learners/{id}/notes. On success the loaded CRM rows of that learner (every filter) and the open
 * details panel take the saved notes in place (SPEC.md: the list is updated locally), no refetch.
 */
export function useSaveLearnerNotes(learnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (notes: string) => apiClient.put(`${learnerPath(learnerId)}/notes`, savedNotes, { body: { notes } }),
    onSuccess: (saved) => {
      queryClient.setQueriesData<InfiniteData<CrmLearnerList>>({ queryKey: ['crm', 'learners'] }, (data) =>
        data
          ? { ...data, pages: data.pages.map((page) => ({ ...page, items: page.items.map((row) => (row.id === learnerId ? { ...row, notes: saved.notes } : row)) })) }
          : data,
      );
      queryClient.setQueryData<CrmLearnerDetails>(crmLearnerQueryOptions(learnerId).queryKey, (details) =>
        details ? { ...details, notes: saved.notes, notesUpdatedAt: saved.updatedAt } : details,
      );
      toast.success(m.notesSaved.title, { description: m.notesSaved.description });
    },
    onError: () => toast.error(m.notesFailed.title, { description: m.notesFailed.description }),
  });
}

/** POST /api/crm/learners/{id}/recommendations: emailed to the learner; the panel's timeline then shows it. */
export function useSendRecommendation(learnerId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (recommendation: string) =>
      apiClient.post(`${learnerPath(learnerId)}/recommendations`, recommendationResponse, { body: { recommendation } }),
    onSuccess: async () => {
      toast.success(m.recommendationSent.title, { description: m.recommendationSent.description });
      await queryClient.invalidateQueries({ queryKey: crmLearnerQueryOptions(learnerId).queryKey });
    },
    // An unverified creator gets the verification panel in the sheet (learner-details-sheet.tsx), not a toast; a
    // trial's daily cap says so in its own words.
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'EMAIL_NOT_VERIFIED') return;
      const description = error instanceof ApiError && error.code === 'RATE_LIMITED' ? error.message : m.recommendationFailed.description;
      toast.error(m.recommendationFailed.title, { description });
    },
  });
}
