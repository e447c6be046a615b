import { NotFoundError } from '#core/errors.ts';
import type { MeResponse } from '#contracts/me.ts';
import type { UserRepository } from '#core/ports.ts';

/** The signed-in user's own profile. */
export const getMe = async (deps: { users: Pick<UserRepository, 'getUser'> }, input: { userId: string }): Promise<MeResponse> => {
  const user = await deps.users.getUser(input.userId);
  if (!user) throw new NotFoundError('Your profile was not found. Contact support if this persists.');
  return { id: user.id, email: user.email, role: user.role, createdAt: user.createdAt };
};
