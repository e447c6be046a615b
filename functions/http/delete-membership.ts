import { deleteMembership } from '#core/memberships/memberships.ts';
import { membershipDeps } from '#functions/composition/deps-memberships.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** DELETE /api/memberships/{membershipId}: 204; off sale for good. */
export const handler = httpRoute({ route: 'delete-membership' }, async ({ auth, params }): Promise<Reply> => {
  await deleteMembership(membershipDeps(), { creatorId: auth.userId, membershipId: params['membershipId'] ?? '' });
  return new Reply(204, null);
});
