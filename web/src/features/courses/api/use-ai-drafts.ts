import { useMutation, useQueryClient } from '@tanstack/react-query';
import { courseOutlineResponse, type CourseOutlineBody, type CourseOutlineDraft } from '@contracts/ai.ts';
import { course, lesson } from '@contracts/courses.ts';
import { apiClient } from '@/lib/api-client.ts';
import { ApiError } from '@/lib/api-error.ts';
import { IDEMPOTENCY_HEADER, newIdempotencyKey } from '@/lib/idempotency-key.ts';
import { courseKeys } from './course-queries.ts';

/** The credits card's query (features/billing/api/billing-queries.ts `creditsQueryKey`; features do not import each other). */
const creditsQueryKey = ['billing', 'credits'] as const;


/** What a failed AI tool says, in words the creator can act on (402: top up; 502: refunded, try again). */
export function aiFailureMessage(error: unknown, price: number): string {
  if (error instanceof ApiError && error.status === 402) return `You need ${price} AI credits for this. Top up your credits on the dashboard and try again.`;
  if (error instanceof ApiError && error.status === 502) return 'The AI could not write a usable draft this time. Your credits have been returned; try again.';
  if (error instanceof ApiError) return error.message;
  return 'Something went wrong. Check your connection and try again.';
}

/**
 * POST /api/ai/course-outline: one Idempotency-Key per click, so a request that arrives twice is charged once; no
 * automatic retry (a 502 has been refunded already, a second try is the creator's choice).
 */
/** The credits the card shows move with every charged call (charged, refunded or found short): refetched after each. */
export function useDraftOutline() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CourseOutlineBody) =>
      apiClient.post('/api/ai/course-outline', courseOutlineResponse, { body, headers: { [IDEMPOTENCY_HEADER]: newIdempotencyKey() } }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: creditsQueryKey }),
  });
}

/** "Create course from outline": a draft course, then its lessons as empty text lessons, in order (existing routes). */
export function useCreateCourseFromOutline() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (outline: CourseOutlineDraft) => {
      const created = await apiClient.post('/api/courses', course, { body: { title: outline.title, description: outline.description } });
      for (const item of outline.lessons) {
        await apiClient.post(`/api/courses/${encodeURIComponent(created.id)}/lessons`, lesson, { body: { title: item.title, kind: 'text', body: '' } });
      }
      return created;
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: courseKeys.all }),
  });
}
