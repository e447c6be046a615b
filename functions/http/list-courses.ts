import { pageQuery, type Paged } from '#contracts/common.ts';
import type { CourseSummary } from '#contracts/courses.ts';
import { listCourses } from '#core/courses/courses.ts';
import { courseRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/courses?cursor=&limit=: the caller's own courses, newest first, a page at a time. */
export const handler = httpRoute({ route: 'list-courses', query: pageQuery }, ({ auth, query }): Promise<Paged<CourseSummary>> =>
  listCourses({ courses: courseRepository() }, { creatorId: auth.userId, ...query }),
);
