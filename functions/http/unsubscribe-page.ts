import { unsubscribeQuery } from '#contracts/campaigns.ts';
import { unsubscribeTarget } from '#core/campaigns/campaigns.ts';
import { confirmPage, invalidLinkPage, unsubscribePageHeaders } from '#core/campaigns/unsubscribe-page.ts';
import { ValidationError } from '#core/errors.ts';
import { unsubscribeDeps } from '#functions/composition/deps-campaigns.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** GET /api/unsubscribe?token=: a page that asks to confirm (a GET never unsubscribes); a changed token is 400. */
export const handler = httpRoute({ route: 'unsubscribe-page', query: unsubscribeQuery }, async ({ query }): Promise<Reply> => {
  try {
    const { masked, list } = await unsubscribeTarget(unsubscribeDeps(), query.token);
    return Reply.raw(200, confirmPage(masked, list), unsubscribePageHeaders);
  } catch (error) {
    if (error instanceof ValidationError) return Reply.raw(400, invalidLinkPage(error.message), unsubscribePageHeaders);
    throw error;
  }
});
