import { addDomainBody } from '#contracts/domains.ts';
import { addDomain } from '#core/domains/domains.ts';
import { domainDeps } from '#functions/composition/deps-domains.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/domains: 201 and the two records to set; 400 for a hostname that is not one or is the platform's; 409 when claimed. */
export const handler = httpRoute({ route: 'add-domain', body: addDomainBody }, async ({ auth, body }): Promise<Reply> =>
  new Reply(201, await addDomain(domainDeps(), { creatorId: auth.userId, body })),
);
