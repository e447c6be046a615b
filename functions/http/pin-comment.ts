import { pinCommentBody } from '#contracts/comments.ts';
import { pinComment } from '#core/comments/comments.ts';
import { discussionDeps } from '#functions/composition/deps-comments.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/comments/{commentId}/pin: the course's creator pins a thread (`{pinned: false}` unpins it). */
export const handler = httpRoute({ route: 'pin-comment', body: pinCommentBody }, ({ auth, params, body }) =>
  pinComment(discussionDeps(), { userId: auth.userId, commentId: params['commentId']!, pinned: body.pinned ?? true }),
);
