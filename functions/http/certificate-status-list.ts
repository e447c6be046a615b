import { statusListCredential } from '#core/certificates/certificates.ts';
import { certificateReadDeps } from '#functions/composition/deps-certificates.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/**
 * GET /api/public/certificate-status-list: the first revocation list as a signed Bitstring Status List credential
 * (VC-JWT), as the certificate-issuer job last signed it: cacheable for the minute the job takes to sign a change.
 */
export const handler = httpRoute({ route: 'certificate-status-list' }, async (): Promise<Reply> =>
  Reply.raw(200, await statusListCredential(certificateReadDeps(), 0), { 'content-type': 'application/vc+jwt', 'cache-control': 'public, max-age=60, s-maxage=60' }),
);
