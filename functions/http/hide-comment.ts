import { hideCommentBody } from '#contracts/comments.ts';
import { hideComment } from '#core/comments/comments.ts';
import { discussionDeps } from '#functions/composition/deps-comments.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/comments/{commentId}/hide: the course's creator hides a comment (`{hidden: false}` shows it again). */
export const handler = httpRoute({ route: 'hide-comment', body: hideCommentBody }, ({ auth, params, body }) =>
  hideComment(discussionDeps(), { userId: auth.userId, commentId: params['commentId']!, hidden: body.hidden ?? true }),
);
