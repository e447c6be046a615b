import { removeDomain } from '#core/domains/domains.ts';
import { domainDeps } from '#functions/composition/deps-domains.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** DELETE /api/domains/{hostname}: 204; the edge stops serving it, then the storefront no longer answers on it. */
export const handler = httpRoute({ route: 'delete-domain' }, async ({ auth, params }): Promise<Reply> => {
  await removeDomain(domainDeps(), { creatorId: auth.userId, hostname: params['hostname'] ?? '' });
  return new Reply(204, null);
});
