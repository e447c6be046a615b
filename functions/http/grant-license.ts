import { grantLicenseBody } from '#contracts/licenses.ts';
import { grantLicense } from '#core/licenses/licenses.ts';
import { licenseDeps } from '#functions/composition/deps.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/courses/{courseId}/licenses: 201 and the licence; a new leader is invited by email. */
export const handler = httpRoute({ route: 'grant-license', body: grantLicenseBody }, async ({ auth, body, params }): Promise<Reply> =>
  new Reply(201, await grantLicense(licenseDeps(), { creatorId: auth.userId, courseId: params['courseId'] ?? '', body })),
);
