import { adminCoursesQuery, type AdminCourseList } from '#contracts/admin-courses.ts';
import { listAllCourses } from '#core/admin/courses.ts';
import { courseRepository, userRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/admin/courses?cursor=: one page of every creator's courses, newest first, with their creators. */
export const handler = httpRoute({ route: 'admin-courses', query: adminCoursesQuery }, ({ query }): Promise<AdminCourseList> =>
  listAllCourses({ courses: courseRepository(), users: userRepository() }, query.cursor),
);
