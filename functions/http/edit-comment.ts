import { sanitizeCommentHtml } from '#adapters/html-sanitizer.ts';
import { editCommentBody } from '#contracts/comments.ts';
import { editComment } from '#core/comments/comments.ts';
import { discussionDeps } from '#functions/composition/deps-comments.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** PATCH /api/comments/{commentId}: the author's new text. */
export const handler = httpRoute({ route: 'edit-comment', body: editCommentBody }, ({ auth, params, body }) =>
  editComment(discussionDeps(sanitizeCommentHtml), { userId: auth.userId, commentId: params['commentId']!, body: body.body }),
);
