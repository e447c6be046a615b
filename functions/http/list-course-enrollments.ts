import { courseEnrollmentsQuery } from '#contracts/courses.ts';
import { listCourseEnrollments } from '#core/enrollments/creator-enrollments.ts';
import { courseRepository, enrollmentRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/courses/{courseId}/enrollments: the course's enrolled learners with their progress, one page. */
export const handler = httpRoute({ route: 'list-course-enrollments', query: courseEnrollmentsQuery }, ({ auth, params, query }) =>
  listCourseEnrollments({ courses: courseRepository(), enrollments: enrollmentRepository() }, { creatorId: auth.userId, courseId: params['courseId']!, ...query }),
);
