import type { LicenseList } from '#contracts/licenses.ts';
import { courseLicenses } from '#core/licenses/licenses.ts';
import { courseRepository, licenseRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/courses/{courseId}/licenses: the licences of the creator's own course. */
export const handler = httpRoute({ route: 'course-licenses' }, ({ auth, params }): Promise<LicenseList> =>
  courseLicenses({ courses: courseRepository(), licenses: licenseRepository() }, { creatorId: auth.userId, courseId: params['courseId'] ?? '' }),
);
