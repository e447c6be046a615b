import { referralQuery } from '#contracts/affiliates.ts';
import { followReferral } from '#core/affiliates/affiliates.ts';
import { referralDeps } from '#functions/composition/deps-affiliates.ts';
import { httpRoute, Reply } from '#middleware/http-route.ts';

/** GET /api/public/r/{code}?to=: 302 to a page of our own origin (400 otherwise), the click counted, the `ref` cookie set. */
export const handler = httpRoute({ route: 'referral-link', query: referralQuery }, async ({ params, query, viewer }): Promise<Reply> => {
  const { location, cookie } = await followReferral(referralDeps(), { code: params['code'] ?? '', to: query.to, visitor: viewer });
  return Reply.redirect(location, cookie ? [cookie] : []);
});
