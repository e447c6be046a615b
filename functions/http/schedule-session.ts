import { idempotencyHeaders } from '#contracts/common.ts';
import { scheduleSessionBody } from '#contracts/live-sessions.ts';
import { scheduleSession } from '#core/live-sessions/sessions.ts';
import { sessionDeps } from '#functions/composition/deps-live-sessions.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/**
 * POST /api/courses/{courseId}/sessions: 201 and the session once the meeting exists at the provider; 409
 * INTEGRATION_NOT_CONNECTED with the provider's reason; 502 naming the provider, with nothing saved or left there.
 */
export const handler = httpRoute({ route: 'schedule-session', body: scheduleSessionBody, headers: idempotencyHeaders }, async ({ auth, params, body, headers }): Promise<Reply> =>
  new Reply(201, await scheduleSession(sessionDeps(), { creatorId: auth.userId, courseId: params['courseId'] ?? '', body, idempotencyKey: headers['idempotency-key'] })),
);
