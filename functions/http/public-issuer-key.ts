import { issuerKey } from '#core/certificates/certificates.ts';
import { certificateReadDeps } from '#functions/composition/deps-certificates.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/public/issuer/keys/{keyId}: the public JWK a credential's `kid` names (Open Badges 3.0 VC-JWT verification). */
export const handler = httpRoute({ route: 'public-issuer-key' }, ({ params }) => issuerKey(certificateReadDeps(), params['keyId'] ?? ''));
