import type { MembershipList } from '#contracts/memberships.ts';
import { listMemberships } from '#core/memberships/memberships.ts';
import { membershipDeps } from '#functions/composition/deps-memberships.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/memberships: the creator's memberships, newest first. */
export const handler = httpRoute({ route: 'list-memberships' }, ({ auth }): Promise<MembershipList> => listMemberships(membershipDeps(), auth.userId));
