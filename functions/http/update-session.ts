import { updateSessionBody } from '#contracts/live-sessions.ts';
import { updateSession } from '#core/live-sessions/sessions.ts';
import { sessionDeps } from '#functions/composition/deps-live-sessions.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** PATCH /api/courses/{courseId}/sessions/{sessionId}: changed at the provider, then saved with its SEQUENCE raised. */
export const handler = httpRoute({ route: 'update-session', body: updateSessionBody }, ({ auth, params, body }) =>
  updateSession(sessionDeps(), { creatorId: auth.userId, courseId: params['courseId'] ?? '', sessionId: params['sessionId'] ?? '', body }),
);
