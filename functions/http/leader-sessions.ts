import { leaderSessions } from '#core/live-sessions/sessions.ts';
import { leaderSessionDeps } from '#functions/composition/deps-live-sessions.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/leader/sessions: the upcoming sessions of the courses the leader's licences cover, soonest first; never a host link. */
export const handler = httpRoute({ route: 'leader-sessions' }, ({ auth }) => leaderSessions(leaderSessionDeps(), auth.userId));
