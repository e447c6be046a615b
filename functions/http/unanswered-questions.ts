import { questionsQuery, type UnansweredQuestions } from '#contracts/comments.ts';
import { unansweredQuestions } from '#core/comments/comments.ts';
import { discussionDeps } from '#functions/composition/deps-comments.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/creator/questions?cursor=: the caller's learners' questions they have not answered, longest waiting first. */
export const handler = httpRoute({ route: 'unanswered-questions', query: questionsQuery }, ({ auth, query }): Promise<UnansweredQuestions> =>
  unansweredQuestions(discussionDeps(), { userId: auth.userId, cursor: query.cursor }),
);
