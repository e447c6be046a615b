import { publicApiOperations } from '#contracts/public-api.ts';
import { listCourses } from '#core/courses/courses.ts';
import { courseRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

const operation = publicApiOperations['v1-list-courses'];

/** GET /v1/courses?cursor=&limit=: the key's creator's courses, as GET /api/courses. */
export const handler = httpRoute({ route: 'v1-list-courses', query: operation.query }, ({ auth, query }) =>
  listCourses({ courses: courseRepository() }, { creatorId: auth.userId, ...query }),
);
