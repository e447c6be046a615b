import { createAffiliateBody } from '#contracts/affiliates.ts';
import { createAffiliate } from '#core/affiliates/affiliates.ts';
import { createAffiliateDeps } from '#functions/composition/deps-affiliates.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/affiliates (Pro plan): 201 and the affiliate, who is emailed their link. */
export const handler = httpRoute({ route: 'create-affiliate', body: createAffiliateBody }, async ({ auth, body, annotate }): Promise<Reply> =>
  new Reply(201, await createAffiliate(createAffiliateDeps((message, fields) => annotate({ warning: message, ...fields })), { creatorId: auth.userId, body })),
);
