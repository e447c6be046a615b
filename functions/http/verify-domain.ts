import { verifyDomain } from '#core/domains/domains.ts';
import { domainDeps } from '#functions/composition/deps-domains.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** POST /api/domains/{hostname}/verify: the records checked now; the domain as far as it moved (`status` first of all). */
export const handler = httpRoute({ route: 'verify-domain' }, ({ auth, params }) => verifyDomain(domainDeps(), { creatorId: auth.userId, hostname: params['hostname'] ?? '' }));
