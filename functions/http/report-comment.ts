import { reportComment } from '#core/comments/comments.ts';
import { reportDeps } from '#functions/composition/deps-comments.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/comments/{commentId}/report: a learner reports someone else's comment to the creator (once per learner). */
export const handler = httpRoute({ route: 'report-comment' }, ({ auth, params }) => reportComment(reportDeps(), { userId: auth.userId, commentId: params['commentId']! }));
