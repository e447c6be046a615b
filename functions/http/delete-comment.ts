import { deleteComment } from '#core/comments/comments.ts';
import { discussionDeps } from '#functions/composition/deps-comments.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** DELETE /api/comments/{commentId}: its author or the course's creator; 204. */
export const handler = httpRoute({ route: 'delete-comment' }, async ({ auth, params }): Promise<Reply> => {
  await deleteComment(discussionDeps(), { userId: auth.userId, commentId: params['commentId']! });
  return new Reply(204, null);
});
