import { learnerSessionsQuery } from '#contracts/live-sessions.ts';
import { learnerSessions } from '#core/live-sessions/sessions.ts';
import { learnerSessionDeps } from '#functions/composition/deps-live-sessions.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/learner/sessions?courseId=: the upcoming sessions of the caller's courses (or one of them), soonest first; never a host link. */
export const handler = httpRoute({ route: 'learner-sessions', query: learnerSessionsQuery }, ({ auth, query }) => learnerSessions(learnerSessionDeps(), auth.userId, query));
