import type { CreditsResponse } from '#contracts/credits.ts';
import { getCredits } from '#core/credits/credits.ts';
import { creditRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/me/credits: the credit account with its last transaction, or null. */
export const handler = httpRoute({ route: 'get-credits' }, ({ auth }): Promise<CreditsResponse> => getCredits({ credits: creditRepository() }, auth.userId));
