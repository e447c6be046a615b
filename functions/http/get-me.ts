import type { MeResponse } from '#contracts/me.ts';
import { getMe } from '#core/accounts/get-me.ts';
import { storedProfile } from '#middleware/account.ts';
import { httpRoute } from '#middleware/http-route.ts';

/**
 * GET /api/me: the caller's profile, from the read the middleware's account check made (remembered for a few seconds,
 * middleware/account.ts): one GetItem at most per request.
 */
export const handler = httpRoute({ route: 'get-me' }, ({ auth }): Promise<MeResponse> => getMe({ users: { getUser: (id) => storedProfile(id) } }, { userId: auth.userId }));
