import { courseChangeJobs } from '#functions/composition/course-jobs.ts';
import { type Course, updateCourseBody } from '#contracts/courses.ts';
import { updateCourse } from '#core/courses/courses.ts';
import { clock, courseRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** PATCH /api/courses/{courseId}: title, description, publish / unpublish; a new title starts a 'course-changed' run. */
export const handler = httpRoute({ route: 'update-course', body: updateCourseBody }, ({ auth, body, params }): Promise<Course> =>
  updateCourse({ courses: courseRepository(), jobs: courseChangeJobs(), clock }, { creatorId: auth.userId, courseId: params['courseId'] ?? '', body }),
);
