import { pageQuery } from '#contracts/common.ts';
import type { MemberList } from '#contracts/memberships.ts';
import { listMembers } from '#core/memberships/memberships.ts';
import { membershipDeps } from '#functions/composition/deps-memberships.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/memberships/{membershipId}/members?cursor=: the creator's own membership's subscriptions, a page at a time. */
export const handler = httpRoute({ route: 'list-membership-members', query: pageQuery }, ({ auth, params, query }): Promise<MemberList> =>
  listMembers(membershipDeps(), { creatorId: auth.userId, membershipId: params['membershipId'] ?? '', cursor: query.cursor, limit: query.limit }),
);
