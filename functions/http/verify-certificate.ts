import { verifyCertificateBody } from '#contracts/certificates.ts';
import { verifyHeldCredential } from '#core/certificates/certificates.ts';
import { certificateReadDeps } from '#functions/composition/deps-certificates.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/public/certificates/verify: any credential a third party holds, checked (proof, claims, revocation). */
export const handler = httpRoute({ route: 'verify-certificate', body: verifyCertificateBody }, ({ body }) => verifyHeldCredential(certificateReadDeps(), body.credential));
