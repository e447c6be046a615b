import { reportQuery } from '#contracts/licenses.ts';
import { exportReport, leaderReport } from '#core/licenses/licenses.ts';
import { appOrigin, enrollmentRepository, exportFiles, ids, licenseRepository } from '#functions/composition/deps.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/**
 * GET /api/leader/reports?format=json|csv&licenseId=&status=&progress=&q=&cursor=&limit=: the members of the leader's
 * licences and their progress; json one page at a time, csv every matching row written to S3 a page at a time and
 * answered as a redirect to the file (`delivery=link`: the link as JSON).
 */
export const handler = httpRoute({ route: 'leader-reports', query: reportQuery }, async ({ auth, query }): Promise<Reply> => {
  const { format, delivery, limit, cursor, ...filters } = query;
  const deps = { licenses: licenseRepository(), enrollments: enrollmentRepository(), appOrigin: appOrigin() };
  if (format === 'json') return new Reply(200, await leaderReport(deps, { leaderId: auth.userId, ...filters, cursor, limit }));
  const file = await exportReport({ ...deps, exports: exportFiles(), ids }, { leaderId: auth.userId, ...filters });
  return delivery === 'link' ? new Reply(200, file) : Reply.redirect(file.url);
});
