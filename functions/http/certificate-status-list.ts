import { statusListCredential } from '#core/certificates/certificates.ts';
import { certificateSignDeps } from '#functions/deps-certificates.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** GET /api/public/certificate-status-list: the revocation list as a signed Bitstring Status List credential (VC-JWT). */
export const handler = httpRoute({ route: 'certificate-status-list' }, async (): Promise<Reply> =>
  Reply.raw(200, await statusListCredential(certificateSignDeps()), { 'content-type': 'application/vc+jwt', 'cache-control': 'public, max-age=60' }),
);
