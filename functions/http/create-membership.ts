import { createMembershipBody } from '#contracts/memberships.ts';
import { createMembership } from '#core/memberships/memberships.ts';
import { membershipDeps } from '#functions/composition/deps-memberships.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** POST /api/memberships (Pro): 201 and the membership (a monthly or yearly price for named courses or all of them). */
export const handler = httpRoute({ route: 'create-membership', body: createMembershipBody }, async ({ auth, body }): Promise<Reply> =>
  new Reply(201, await createMembership(membershipDeps(), { creatorId: auth.userId, body })),
);
