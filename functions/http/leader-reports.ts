import { reportQuery } from '#contracts/licenses.ts';
import { leaderReport, reportCsv } from '#core/licenses/licenses.ts';
import { appOrigin, enrollmentRepository, licenseRepository } from '#functions/composition/deps.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/**
 * GET /api/leader/reports?format=json|csv&licenseId=&status=&progress=&q=&cursor=&limit=: the members of the leader's
 * licences and their progress; json one page at a time, csv every matching row as an attachment.
 */
export const handler = httpRoute({ route: 'leader-reports', query: reportQuery }, async ({ auth, query }): Promise<Reply> => {
  const { format, limit, cursor, ...filters } = query;
  const deps = { licenses: licenseRepository(), enrollments: enrollmentRepository(), appOrigin: appOrigin() };
  if (format === 'json') return new Reply(200, await leaderReport(deps, { leaderId: auth.userId, ...filters, cursor, limit }));
  const { items } = await leaderReport(deps, { leaderId: auth.userId, ...filters, limit: Infinity });
  return Reply.raw(200, reportCsv(items), { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="team-report.csv"' });
});
