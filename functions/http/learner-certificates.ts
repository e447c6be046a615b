import { learnerCertificates } from '#core/certificates/certificates.ts';
import { certificateReadDeps } from '#functions/composition/deps-certificates.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/learner/certificates: the learner's certificates, newest first. */
export const handler = httpRoute({ route: 'learner-certificates' }, ({ auth }) => learnerCertificates(certificateReadDeps(), auth.userId));
