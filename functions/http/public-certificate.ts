import { publicCertificate } from '#core/certificates/certificates.ts';
import { publicCertificateDeps } from '#functions/composition/deps-certificates.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/public/certificates/{certificateId}: the credential as issued, its status and its page (no sign-in). */
export const handler = httpRoute({ route: 'public-certificate' }, ({ params }) => publicCertificate(publicCertificateDeps(), params['certificateId'] ?? ''));
