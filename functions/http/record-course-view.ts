import { recordCourseView } from '#core/storefront/storefront.ts';
import { courseViewDeps } from '#functions/composition/deps-storefront.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/public/courses/{courseId}/views: the course page's view, counted once per visitor a day; 204. */
export const handler = httpRoute({ route: 'record-course-view' }, async ({ params, viewer }): Promise<Reply> => {
  await recordCourseView(courseViewDeps(), params['courseId'] ?? '', viewer);
  return new Reply(204, null);
});
