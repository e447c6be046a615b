import type { PublicMembership } from '#contracts/memberships.ts';
import { publicMembership } from '#core/memberships/memberships.ts';
import { publicMembershipDeps } from '#functions/composition/deps-memberships.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/public/memberships/{membershipId}: an active membership and its courses now, as a visitor sees it (no sign-in); 404 otherwise. */
export const handler = httpRoute({ route: 'get-public-membership' }, ({ params }): Promise<PublicMembership> => publicMembership(publicMembershipDeps(), params['membershipId'] ?? ''));
