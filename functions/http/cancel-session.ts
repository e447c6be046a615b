import { cancelSession } from '#core/live-sessions/sessions.ts';
import { sessionDeps } from '#functions/composition/deps-live-sessions.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/**
 * DELETE /api/courses/{courseId}/sessions/{sessionId}: 204 once the meeting is deleted at the provider and the session
 * cancelled; 200 with the cancelled session (`providerSync: 'pending'`) when the provider was down or refused.
 */
export const handler = httpRoute({ route: 'cancel-session' }, async ({ auth, params }): Promise<Reply> => {
  const pending = await cancelSession(sessionDeps(), { creatorId: auth.userId, courseId: params['courseId'] ?? '', sessionId: params['sessionId'] ?? '' });
  return pending ? new Reply(200, pending) : new Reply(204, null);
});
