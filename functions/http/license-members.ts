import type { MemberList } from '#contracts/licenses.ts';
import { licenseMembers } from '#core/licenses/licenses.ts';
import { appOrigin, enrollmentRepository, licenseRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/leader/licenses/{licenseId}/seats: the members of the leader's own licence, with their progress. */
export const handler = httpRoute({ route: 'license-members' }, ({ auth, params }): Promise<MemberList> =>
  licenseMembers({ licenses: licenseRepository(), enrollments: enrollmentRepository(), appOrigin: appOrigin() }, { leaderId: auth.userId, licenseId: params['licenseId'] ?? '' }),
);
