import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type * as z from 'zod';
import {
  courseOutlineResponse,
  lessonDraftResponse,
  quizFromLessonResponse,
  type CourseOutlineBody,
  type CourseOutlineDraft,
  type LessonDraftBody,
  type QuizFromLessonBody,
} from '@contracts/ai.ts';
import { aiPricesResponse, type AiTool } from '@contracts/credits.ts';
import { course, lesson } from '@contracts/courses.ts';
import { apiClient } from '@/lib/api-client.ts';
import { ApiError } from '@/lib/api-error.ts';
import { IDEMPOTENCY_HEADER, newIdempotencyKey } from '@/lib/idempotency-key.ts';
import { courseKeys } from './course-queries.ts';

/** The credits card's query (features/billing/api/billing-queries.ts `creditsQueryKey`; features do not import each other). */
const creditsQueryKey = ['billing', 'credits'] as const;

/** GET /api/ai/prices: the one price table. A price changes with a deploy at most, so it is read once a session. */
export const aiPricesQueryOptions = () =>
  queryOptions({
    queryKey: ['ai', 'prices'] as const,
    queryFn: ({ signal }) => apiClient.get('/api/ai/prices', aiPricesResponse, { signal }),
    staleTime: Infinity,
  });

/** A tool's price as the server charges it; undefined until the table has arrived (the run button waits for it). */
export function useAiPrice(tool: AiTool): number | undefined {
  return useQuery(aiPricesQueryOptions()).data?.[tool];
}

/** What a failed AI tool says, in words the creator can act on (402: top up; 502: refunded, try again). */
export function aiFailureMessage(error: unknown, price: number | undefined): string {
  if (isShortOfCredits(error)) return `You need ${price ?? 'more'} AI credits for this. Top up your credits on the dashboard and try again.`;
  if (error instanceof ApiError && error.status === 502) return 'The AI could not write a usable draft this time. Your credits have been returned; try again.';
  if (error instanceof ApiError) return error.message;
  return 'Something went wrong. Check your connection and try again.';
}

/** 402: the balance does not cover the price (nothing was charged); the way on is a top-up. */
export const isShortOfCredits = (error: unknown): boolean => error instanceof ApiError && error.status === 402;

/**
 * One charged AI call (issue 36): one Idempotency-Key per click, so a request that arrives twice is charged once; no
 * automatic retry (a 502 has been refunded already, a second try is the creator's choice). The credits the card shows
 * move with every call (charged, refunded or found short): refetched after each.
 */
function useChargedDraft<Body, Answer>(path: string, answer: z.ZodType<Answer>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Body) => apiClient.post(path, answer, { body, headers: { [IDEMPOTENCY_HEADER]: newIdempotencyKey() } }),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: creditsQueryKey }),
  });
}

/** POST /api/ai/course-outline: a title, a description and the lessons asked for. */
export const useDraftOutline = () => useChargedDraft<CourseOutlineBody, z.infer<typeof courseOutlineResponse>>('/api/ai/course-outline', courseOutlineResponse);

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

/** POST /api/ai/lesson-draft: a Markdown body for the editor, saved only by the lesson's own Save. */
export const useDraftLesson = () => useChargedDraft<LessonDraftBody, z.infer<typeof lessonDraftResponse>>('/api/ai/lesson-draft', lessonDraftResponse);

/** POST /api/ai/quiz-from-lesson: a quiz valid for a quiz lesson as it is, from a saved text lesson; nothing is saved. */
export const useDraftQuiz = () => useChargedDraft<QuizFromLessonBody, z.infer<typeof quizFromLessonResponse>>('/api/ai/quiz-from-lesson', quizFromLessonResponse);
