import { cancelSession } from '#core/live-sessions/sessions.ts';
import { sessionDeps } from '#functions/composition/deps-live-sessions.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** DELETE /api/courses/{courseId}/sessions/{sessionId}: 204 once the meeting is deleted at the provider and the session cancelled. */
export const handler = httpRoute({ route: 'cancel-session' }, async ({ auth, params }): Promise<Reply> => {
  await cancelSession(sessionDeps(), { creatorId: auth.userId, courseId: params['courseId'] ?? '', sessionId: params['sessionId'] ?? '' });
  return new Reply(204, null);
});
