import { type Membership, updateMembershipBody } from '#contracts/memberships.ts';
import { updateMembership } from '#core/memberships/memberships.ts';
import { membershipDeps } from '#functions/composition/deps-memberships.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** PATCH /api/memberships/{membershipId} (Pro): its title, description, courses, on or off sale; another creator's is 404. */
export const handler = httpRoute({ route: 'edit-membership', body: updateMembershipBody }, ({ auth, body, params }): Promise<Membership> =>
  updateMembership(membershipDeps(), { creatorId: auth.userId, membershipId: params['membershipId'] ?? '', body }),
);
