import { statusListCredential } from '#core/certificates/certificates.ts';
import { certificateReadDeps } from '#functions/composition/deps-certificates.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** GET /api/public/certificate-status-list/{list}: revocation list number `list` (a new one when one is full), as signed by the job. */
export const handler = httpRoute({ route: 'certificate-status-list-page' }, async ({ params }): Promise<Reply> => {
  const jwt = await statusListCredential(certificateReadDeps(), /^\d{1,9}$/.test(params['list'] ?? '') ? Number(params['list']) : -1);
  return Reply.raw(200, jwt, { 'content-type': 'application/vc+jwt', 'cache-control': 'public, max-age=60, s-maxage=60' });
});
