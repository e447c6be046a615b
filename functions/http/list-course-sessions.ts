import { listCourseSessions } from '#core/live-sessions/sessions.ts';
import { sessionReadDeps } from '#functions/composition/deps-live-sessions.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/courses/{courseId}/sessions: every session of the creator's course, soonest first (404 for another's course). */
export const handler = httpRoute({ route: 'list-course-sessions' }, ({ auth, params }) =>
  listCourseSessions(sessionReadDeps(), { creatorId: auth.userId, courseId: params['courseId'] ?? '' }),
);
