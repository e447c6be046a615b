import type { CourseSummary } from '#contracts/courses.ts';
import { listCourses } from '#core/courses/courses.ts';
import { courseRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/courses: the caller's own courses, newest first. */
export const handler = httpRoute({ route: 'list-courses' }, ({ auth }): Promise<{ items: CourseSummary[] }> => listCourses({ courses: courseRepository() }, auth.userId));
