import type { LeaderSummary } from '#contracts/licenses.ts';
import { leaderSummaryOf } from '#core/licenses/licenses.ts';
import { appOrigin, clock, enrollmentRepository, licenseRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/leader/summary: the leader dashboard's figures (members, active licences, completion rate, certificates). */
export const handler = httpRoute({ route: 'leader-summary' }, ({ auth }): Promise<LeaderSummary> =>
  leaderSummaryOf({ licenses: licenseRepository(), enrollments: enrollmentRepository(), appOrigin: appOrigin(), clock }, auth.userId),
);
