import { supportRequestsQuery, type SupportRequestList } from '#contracts/support.ts';
import { listSupportRequests } from '#core/support/support.ts';
import { supportRepository } from '#functions/composition/deps-support.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/support/requests?cursor=: the creator's own requests with their replies, newest first. */
export const handler = httpRoute({ route: 'list-support-requests', query: supportRequestsQuery }, ({ auth, query }): Promise<SupportRequestList> =>
  listSupportRequests({ support: supportRepository() }, auth.userId, query.cursor),
);
