import { creatorExportQuery } from '#contracts/reports.ts';
import { creatorExport } from '#core/reports/exports.ts';
import { exportDeps } from '#functions/composition/deps-reports.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/**
 * GET /api/creator/exports/{kind}?format=csv&delivery=file|link (Pro): every sale, learner or certificate written to
 * S3 a page at a time, answered as a redirect to the file (`delivery=link`: the link as JSON).
 */
export const handler = httpRoute({ route: 'creator-export', query: creatorExportQuery }, async ({ auth, params, query }): Promise<Reply> => {
  const file = await creatorExport(exportDeps(), { creatorId: auth.userId, kind: params['kind'] ?? '' });
  return query.delivery === 'link' ? new Reply(200, file) : Reply.redirect(file.url);
});
