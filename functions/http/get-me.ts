import type { MeResponse } from '#contracts/me.ts';
import { getMe } from '#core/accounts/get-me.ts';
import { userRepository } from '#functions/composition/deps.ts';
import { httpRoute } from '#middleware/http-route.ts';

/** GET /api/me: the caller's profile. */
export const handler = httpRoute({ route: 'get-me' }, ({ auth }): Promise<MeResponse> => getMe({ users: userRepository() }, { userId: auth.userId }));
