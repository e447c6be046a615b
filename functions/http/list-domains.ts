import { listDomains } from '#core/domains/domains.ts';
import { domainRepository } from '#functions/composition/deps-domains.ts';
import { required } from '#functions/config.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/domains: the creator's domains, where each stands, and any flag of the periodic check. */
export const handler = httpRoute({ route: 'list-domains' }, ({ auth }) => listDomains({ domains: domainRepository(), cnameTarget: required('DOMAIN_CNAME_TARGET') }, auth.userId));
