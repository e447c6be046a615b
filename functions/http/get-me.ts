import type { MeResponse } from '../contracts/me.ts';
import { getMe } from '../core/accounts/get-me.ts';
import { userRepository } from '../deps.ts';
import { httpRoute } from '../middleware/http-route.ts';

/** GET /api/me: the caller's profile. */
export const handler = httpRoute({}, async ({ auth }): Promise<MeResponse> => {
  const user = await getMe({ users: userRepository() }, { userId: auth!.userId });
  return { id: user.id, email: user.email, role: user.role, createdAt: user.createdAt };
});
