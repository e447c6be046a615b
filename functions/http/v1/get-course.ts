import { getCourse } from '#core/courses/courses.ts';
import { courseRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /v1/courses/{courseId}: one of the key's creator's courses, as GET /api/courses/{courseId}; anyone else's is 404. */
export const handler = httpRoute({ route: 'v1-get-course' }, ({ auth, params }) =>
  getCourse({ courses: courseRepository() }, { creatorId: auth.userId, courseId: params['courseId'] ?? '' }),
);
