import { pageQuery } from '#contracts/common.ts';
import { learnerCourses } from '#core/enrollments/learner-courses.ts';
import { enrollmentRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/learner/courses?cursor=&limit=: the caller's active enrolments, a page at a time, each page most recent activity first. */
export const handler = httpRoute({ route: 'learner-courses', query: pageQuery }, ({ auth, query }) => learnerCourses({ enrollments: enrollmentRepository() }, { learnerId: auth.userId, ...query }));
