import { learnerCourses } from '#core/enrollments/learner-courses.ts';
import { enrollmentRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/learner/courses: the caller's active enrolments, most recent activity first. */
export const handler = httpRoute({ route: 'learner-courses' }, ({ auth }) => learnerCourses({ enrollments: enrollmentRepository() }, { learnerId: auth.userId }));
