import { pageQuery } from '#contracts/common.ts';
import type { LicenseList } from '#contracts/licenses.ts';
import { courseLicenses } from '#core/licenses/licenses.ts';
import { courseRepository, licenseRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/courses/{courseId}/licenses?cursor=&limit=: the licences of the creator's own course, a page at a time. */
export const handler = httpRoute({ route: 'course-licenses', query: pageQuery }, ({ auth, params, query }): Promise<LicenseList> =>
  courseLicenses({ courses: courseRepository(), licenses: licenseRepository() }, { creatorId: auth.userId, courseId: params['courseId'] ?? '', ...query }),
);
