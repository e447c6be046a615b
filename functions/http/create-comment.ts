import { sanitizeCommentHtml } from '#adapters/html-sanitizer.ts';
import { createCommentBody } from '#contracts/comments.ts';
import { postComment } from '#core/comments/comments.ts';
import { discussionDeps } from '#functions/composition/deps-comments.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/courses/{courseId}/lessons/{lessonId}/comments: 201 and the comment (a thread, or a reply with `parentId`). */
export const handler = httpRoute({ route: 'create-comment', body: createCommentBody }, async ({ auth, params, body }): Promise<Reply> =>
  new Reply(201, await postComment(discussionDeps(sanitizeCommentHtml), { userId: auth.userId, courseId: params['courseId']!, lessonId: params['lessonId']!, body: body.body, parentId: body.parentId })),
);
