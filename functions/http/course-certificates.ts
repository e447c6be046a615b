import { pageQuery } from '#contracts/common.ts';
import { courseCertificates } from '#core/certificates/certificates.ts';
import { courseCertificateDeps } from '#functions/composition/deps-certificates.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/courses/{courseId}/certificates?cursor=&limit=: the course's certificates, for its creator, a page at a time. */
export const handler = httpRoute({ route: 'course-certificates', query: pageQuery }, ({ auth, params, query }) =>
  courseCertificates(courseCertificateDeps(), { creatorId: auth.userId, courseId: params['courseId'] ?? '', ...query }),
);
