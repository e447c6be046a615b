import type { Course } from '#contracts/courses.ts';
import { getCourse } from '#core/courses/courses.ts';
import { courseRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/courses/{courseId}: the caller's course with its lessons in order; 404 for anyone else's. */
export const handler = httpRoute({ route: 'get-course' }, ({ auth, params }): Promise<Course> =>
  getCourse({ courses: courseRepository() }, { creatorId: auth.userId, courseId: params['courseId'] ?? '' }),
);
