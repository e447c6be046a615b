import { issuerProfile } from '#core/certificates/certificates.ts';
import { certificateReadDeps } from '#functions/composition/deps-certificates.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/public/issuer: the certificates' issuer profile and the public keys they are signed with. */
export const handler = httpRoute({ route: 'public-issuer' }, () => issuerProfile(certificateReadDeps()));
