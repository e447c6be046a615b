import { infiniteQueryOptions } from '@tanstack/react-query';
import { unansweredQuestions } from '@contracts/comments.ts';
import { apiClient } from '@/lib/api-client.ts';

/**
 * GET /api/creator/questions?cursor=: the learners' threads the creator has not answered, longest waiting first, 10 a
 * page ('Load more' follows `nextCursor`). Always stale: the creator answers in the course editor (another feature's
 * screen), so coming back to the dashboard reads the list again rather than showing an answered question for 30 s.
 */
export const creatorQuestionsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: ['creator', 'questions'] as const,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      apiClient.get(`/api/creator/questions${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`, unansweredQuestions, { signal }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    staleTime: 0,
  });
