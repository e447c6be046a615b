import { infiniteQueryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod';
import { commentList, commentView } from '@contracts/comments.ts';
import { apiClient } from '@/lib/api-client.ts';

/**
 * A lesson's discussion (issue 35 point 1; docs/api.md "Lesson discussions"): its threads page after page, and what a
 * learner or the course's creator does in it. Every change reloads the lesson's threads (a reply moves its thread to
 * the top, a pin above the others: the server's order, not one kept here).
 */
const discussionKey = (courseId: string, lessonId: string) => ['discussion', courseId, lessonId] as const;
const commentsPath = (courseId: string, lessonId: string) => `/api/courses/${encodeURIComponent(courseId)}/lessons/${encodeURIComponent(lessonId)}/comments`;
const commentPath = (commentId: string) => `/api/comments/${encodeURIComponent(commentId)}`;

/** GET .../comments: 20 threads a page, pinned first, then newest activity; 'Load more' follows `nextCursor`. */
export const discussionQueryOptions = (courseId: string, lessonId: string) =>
  infiniteQueryOptions({
    queryKey: discussionKey(courseId, lessonId),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      apiClient.get(`${commentsPath(courseId, lessonId)}${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`, commentList, { signal }),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });

export type DiscussionAction =
  | { kind: 'post'; body: string; parentId?: string }
  | { kind: 'edit'; commentId: string; body: string }
  | { kind: 'delete'; commentId: string }
  | { kind: 'hide'; commentId: string; hidden: boolean }
  | { kind: 'pin'; commentId: string; pinned: boolean }
  | { kind: 'report'; commentId: string };

const send = (courseId: string, lessonId: string, action: DiscussionAction): Promise<unknown> => {
  switch (action.kind) {
    case 'post':
      return apiClient.post(commentsPath(courseId, lessonId), commentView, { body: { body: action.body, ...(action.parentId ? { parentId: action.parentId } : {}) } });
    case 'edit':
      return apiClient.patch(commentPath(action.commentId), commentView, { body: { body: action.body } });
    case 'delete':
      return apiClient.delete(commentPath(action.commentId), z.null());
    case 'hide':
      return apiClient.post(`${commentPath(action.commentId)}/hide`, commentView, { body: { hidden: action.hidden } });
    case 'pin':
      return apiClient.post(`${commentPath(action.commentId)}/pin`, commentView, { body: { pinned: action.pinned } });
    case 'report':
      return apiClient.post(`${commentPath(action.commentId)}/report`, z.object({ reported: z.literal(true) }));
  }
};

/** Any change to the lesson's discussion; the threads are read again once it is done. */
export function useDiscussionAction(courseId: string, lessonId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: DiscussionAction) => send(courseId, lessonId, action),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: discussionKey(courseId, lessonId) }),
  });
}
