import { courseRemovalDeps } from '#functions/composition/course-jobs.ts';
import type { Course } from '#contracts/courses.ts';
import { deleteCourse } from '#core/courses/courses.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** DELETE /api/courses/{courseId}: the course at once, the rest (its files, enrolments, lessons) by a 'course-changed' run; answers the course as it was. */
export const handler = httpRoute({ route: 'delete-course' }, ({ auth, params }): Promise<Course> =>
  deleteCourse(courseRemovalDeps(), { creatorId: auth.userId, courseId: params['courseId'] ?? '' }),
);
