import { pageQuery } from '#contracts/common.ts';
import { learnerCertificates } from '#core/certificates/certificates.ts';
import { certificateReadDeps } from '#functions/composition/deps-certificates.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/learner/certificates?cursor=&limit=: the learner's certificates, newest first, a page at a time. */
export const handler = httpRoute({ route: 'learner-certificates', query: pageQuery }, ({ auth, query }) => learnerCertificates(certificateReadDeps(), auth.userId, query));
