import { courseCertificates } from '#core/certificates/certificates.ts';
import { courseCertificateDeps } from '#functions/composition/deps-certificates.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/courses/{courseId}/certificates: the course's certificates, for its creator. */
export const handler = httpRoute({ route: 'course-certificates' }, ({ auth, params }) =>
  courseCertificates(courseCertificateDeps(), { creatorId: auth.userId, courseId: params['courseId'] ?? '' }),
);
