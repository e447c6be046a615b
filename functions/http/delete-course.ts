import { courseChangeJobs } from '#functions/composition/course-jobs.ts';
import type { Course } from '#contracts/courses.ts';
import { deleteCourse } from '#core/courses/courses.ts';
import { fileDeps } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** DELETE /api/courses/{courseId}: the course and its files at once, the rest by a 'course-changed' run; answers the course as it was. */
export const handler = httpRoute({ route: 'delete-course' }, ({ auth, params }): Promise<Course> =>
  deleteCourse({ ...fileDeps(), jobs: courseChangeJobs() }, { creatorId: auth.userId, courseId: params['courseId'] ?? '' }),
);
