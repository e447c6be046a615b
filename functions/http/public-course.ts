import type { PublicCoursePage } from '#contracts/storefront.ts';
import { publicCoursePage } from '#core/storefront/storefront.ts';
import { storefrontDeps } from '#functions/composition/deps-storefront.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/public/courses/{courseId}: a published course as a visitor sees it (no sign-in); 404 otherwise. */
export const handler = httpRoute({ route: 'public-course' }, ({ params }): Promise<PublicCoursePage> =>
  publicCoursePage(storefrontDeps(), params['courseId'] ?? ''),
);
