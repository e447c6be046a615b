import { reportQuery } from '#contracts/licenses.ts';
import { leaderReport, reportCsv } from '#core/licenses/licenses.ts';
import { enrollmentRepository, licenseRepository } from '#functions/deps.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** GET /api/leader/reports?format=json|csv&licenseId=: the members of the leader's licences and their progress. */
export const handler = httpRoute({ route: 'leader-reports', query: reportQuery }, async ({ auth, query }): Promise<Reply> => {
  const report = await leaderReport({ licenses: licenseRepository(), enrollments: enrollmentRepository() }, { leaderId: auth.userId, licenseId: query.licenseId });
  if (query.format === 'json') return new Reply(200, report);
  return Reply.raw(200, reportCsv(report), { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="team-report.csv"' });
});
