import { payoutExportQuery } from '#contracts/affiliates.ts';
import { exportPayout } from '#core/affiliates/affiliates.ts';
import { affiliateRepository, exportFiles, ids } from '#functions/composition/deps.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/**
 * GET /api/affiliates/{affiliateId}/payouts/{payoutId}?format=csv&delivery=file|link: every line of the payout written
 * to S3 a page at a time, answered as a redirect to the file (`delivery=link`: the link as JSON).
 */
export const handler = httpRoute({ route: 'affiliate-payout-export', query: payoutExportQuery }, async ({ auth, params, query }): Promise<Reply> => {
  const file = await exportPayout(
    { affiliates: affiliateRepository(), exports: exportFiles(), ids },
    { creatorId: auth.userId, affiliateId: params['affiliateId'] ?? '', payoutId: params['payoutId'] ?? '' },
  );
  return query.delivery === 'link' ? new Reply(200, file) : Reply.redirect(file.url);
});
