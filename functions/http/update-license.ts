import { type License, updateLicenseBody } from '#contracts/licenses.ts';
import { updateLicense } from '#core/licenses/licenses.ts';
import { clock, courseRepository, enrollmentRepository, licenseRepository, subscriptionReader } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** PATCH /api/courses/{courseId}/licenses/{licenseId}: seats, end date, or the end now, of a licence of the creator's own course. */
export const handler = httpRoute({ route: 'update-license', body: updateLicenseBody }, ({ auth, params, body }): Promise<License> =>
  updateLicense(
    { courses: courseRepository(), licenses: licenseRepository(), enrollments: enrollmentRepository(), billing: subscriptionReader(), clock },
    { creatorId: auth.userId, courseId: params['courseId'] ?? '', licenseId: params['licenseId'] ?? '', body },
  ),
);
