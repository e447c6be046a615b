import type { Course } from '#contracts/courses.ts';
import { deleteCourse } from '#core/courses/courses.ts';
import { courseRepository } from '#functions/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** DELETE /api/courses/{courseId}: the course with its lessons and enrolments; answers the course as it was. */
export const handler = httpRoute({ route: 'delete-course' }, ({ auth, params }): Promise<Course> =>
  deleteCourse({ courses: courseRepository() }, { creatorId: auth.userId, courseId: params['courseId'] ?? '' }),
);
