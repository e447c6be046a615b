import { pageQuery } from '#contracts/common.ts';
import type { MemberList } from '#contracts/licenses.ts';
import { licenseMembers } from '#core/licenses/licenses.ts';
import { appOrigin, enrollmentRepository, licenseRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/leader/licenses/{licenseId}/seats?cursor=&limit=: the members of the leader's own licence, with their progress, a page at a time. */
export const handler = httpRoute({ route: 'license-members', query: pageQuery }, ({ auth, params, query }): Promise<MemberList> =>
  licenseMembers(
    { licenses: licenseRepository(), enrollments: enrollmentRepository(), appOrigin: appOrigin() },
    { leaderId: auth.userId, licenseId: params['licenseId'] ?? '', ...query },
  ),
);
