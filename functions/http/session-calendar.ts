import { learnerSessionCalendar } from '#core/live-sessions/sessions.ts';
import { learnerSessionDeps } from '#functions/composition/deps-live-sessions.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** GET /api/learner/sessions/{sessionId}/calendar.ics: the session as an RFC 5545 file (404 unless enrolled in its course). */
export const handler = httpRoute({ route: 'session-calendar' }, async ({ auth, params }): Promise<Reply> => {
  const sessionId = params['sessionId'] ?? '';
  const file = await learnerSessionCalendar(learnerSessionDeps(), { learnerId: auth.userId, sessionId });
  return Reply.raw(200, file, {
    'content-type': 'text/calendar; charset=utf-8',
    'content-disposition': `attachment; filename="session-${sessionId.replace(/[^A-Za-z0-9_-]/g, '')}.ics"`,
    'cache-control': 'private, no-store',
  });
});
