import { NotFoundError } from '#core/errors.ts';
import type { User, UserRepository } from '#core/ports.ts';

/** The signed-in user's own profile. */
export const getMe = async (deps: { users: UserRepository }, input: { userId: string }): Promise<User> => {
  const user = await deps.users.getUser(input.userId);
  if (!user) throw new NotFoundError('Your profile was not found. Contact support if this persists.');
  return user;
};
