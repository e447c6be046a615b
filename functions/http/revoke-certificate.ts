import { revokeCertificateBody } from '#contracts/certificates.ts';
import { revokeCertificate } from '#core/certificates/certificates.ts';
import { certificateReadDeps } from '#functions/composition/deps-certificates.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/certificates/{certificateId}/revoke: the course's creator revokes it with a reason (404 for another's). */
export const handler = httpRoute({ route: 'revoke-certificate', body: revokeCertificateBody }, ({ auth, params, body }) =>
  revokeCertificate(certificateReadDeps(), { creatorId: auth.userId, id: params['certificateId'] ?? '', reason: body.reason }),
);
