import { learnerSessions } from '#core/live-sessions/sessions.ts';
import { learnerSessionDeps } from '#functions/composition/deps-live-sessions.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/learner/sessions: the upcoming sessions of the caller's courses, soonest first; never a host link. */
export const handler = httpRoute({ route: 'learner-sessions' }, ({ auth }) => learnerSessions(learnerSessionDeps(), auth.userId));
