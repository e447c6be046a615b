import type { Role } from '#contracts/common.ts';
import { ConflictError } from '#core/errors.ts';
import type { EmailMessage } from '#core/accounts/password-reset-email.ts';
import type { Clock, Directory, Mailer, User, UserRepository } from '#core/ports.ts';

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

/**
 * The account behind an email, for someone another person brings in (a creator enrols them, a leader gives them a
 * seat, they buy): theirs when it has `role`; a new one of that role when the email is new, sent `invitation` with
 * its temporary password; undefined when the email belongs to an account of another role (the caller says why).
 */
export const accountOrInvite = async (
  deps: { users: UserRepository; directory: Directory; clock: Clock; mailer: Mailer; temporaryPassword: () => string },
  input: { email: string; role: Role; invitation: (temporaryPassword: string, user: User) => EmailMessage },
): Promise<{ user: User; invited: boolean } | undefined> => {
  const id = await deps.users.getUserIdByEmail(input.email);
  if (id) {
    const user = await deps.users.getUser(id);
    return user?.role === input.role ? { user, invited: false } : undefined;
  }
  const temporaryPassword = deps.temporaryPassword();
  const user = await createAccount(deps, { email: input.email, role: input.role, temporaryPassword });
  await deps.mailer.send({ to: user.email, ...input.invitation(temporaryPassword, user) });
  return { user, invited: true };
};
