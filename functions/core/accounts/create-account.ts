import type { Role } from '#contracts/common.ts';
import { ConflictError } from '#core/errors.ts';
import type { Clock, Directory, User, UserRepository } from '#core/ports.ts';

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/**
 * An account made by someone else (an admin, a creator inviting a learner, the local seed): the role comes from
 * the caller, never from the new user. Steps: 1. refuse a taken email; 2. create the sign-in account;
 * 3. put it in its group; 4. write the profile and counters.
 */
export const createAccount = async (
  deps: { users: UserRepository; directory: Directory; clock: Clock },
  input: { email: string; role: Role; password?: string; temporaryPassword?: string },
): Promise<User> => {
  const email = normaliseEmail(input.email);
  if (await deps.users.getUserIdByEmail(email)) throw new ConflictError(`An account with ${email} already exists.`);
  const { id, username } = await deps.directory.createAccount({
    email,
    ...(input.password ? { password: input.password } : {}),
    ...(input.temporaryPassword ? { temporaryPassword: input.temporaryPassword } : {}),
  });
  await deps.directory.addToGroup(username, input.role);
  const user: User = { id, email, role: input.role, createdAt: deps.clock.now().toISOString() };
  await deps.users.createUser(user);
  return user;
};
