import type { PublicDomain } from '#contracts/domains.ts';
import { publicDomainOf } from '#core/domains/domains.ts';
import { publicDomainDeps } from '#functions/composition/deps-domains.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/public/domains/{hostname}: the creator an active custom domain serves (the storefront entry's lookup); 404 otherwise. */
export const handler = httpRoute({ route: 'public-domain' }, ({ params }): Promise<PublicDomain> => publicDomainOf(publicDomainDeps(), params['hostname'] ?? ''));
