import { commentsQuery, type CommentList } from '#contracts/comments.ts';
import { listComments } from '#core/comments/comments.ts';
import { discussionDeps } from '#functions/composition/deps-comments.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/courses/{courseId}/lessons/{lessonId}/comments?cursor=: a page of the lesson's threads with their replies. */
export const handler = httpRoute({ route: 'list-comments', query: commentsQuery }, ({ auth, params, query }): Promise<CommentList> =>
  listComments(discussionDeps(), { userId: auth.userId, courseId: params['courseId']!, lessonId: params['lessonId']!, cursor: query.cursor }),
);
