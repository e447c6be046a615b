import type { Role } from '#contracts/common.ts';
import type { AuditLine } from '#core/audit-line.ts';
import { ConflictError } from '#core/errors.ts';
import type { EmailMessage } from '#core/accounts/password-reset-email.ts';
import type { Clock, Directory, Mailer, User, UserRepository } from '#core/ports.ts';

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

/**
 * An account made by someone else (an admin, a creator inviting a learner, the local seed): the role comes from
 * the caller, never from the new user. Steps: 1. refuse a taken email; 2. create the sign-in account; 3. put it in
 * its group; 4. `beforeProfile` (the invitation); 5. write the profile and counters. The profile comes last: until it
 * is written the email is not taken, and a retry after any failure on the way (the directory, the mail, the database)
 * starts again and finishes, taking over the unfinished sign-in account (cognito-directory.ts) with a new temporary
 * password, so the invitation that finally goes out is one that works.
 */
export const createAccount = async (
  deps: { users: UserRepository; directory: Directory; clock: Clock },
  input: {
    email: string;
    role: Role;
    password?: string;
    temporaryPassword?: string;
    beforeProfile?: (user: User) => Promise<void>;
    /** An admin's audit line for the new account, written in the profile's transaction (core/admin/users.ts). */
    audit?: (user: User) => AuditLine;
  },
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
  await input.beforeProfile?.(user);
  await deps.users.createUser(user, input.audit ? { audit: input.audit(user) } : undefined);
  return user;
};

/**
 * The account behind an email, for someone another person brings in (a creator enrols them, a leader gives them a
 * seat, they buy): theirs when it has `role`; a new one of that role when the email is new, sent `invitation` with
 * its temporary password; undefined when the email belongs to an account of another role (the caller says why).
 */
export const accountOrInvite = async (
  deps: { users: UserRepository; directory: Directory; clock: Clock; mailer: Mailer; temporaryPassword: () => string },
  input: {
    email: string;
    role: Role;
    invitation: (temporaryPassword: string, user: User) => EmailMessage;
    /** Runs before a new account is made and invited (the inviter's checks: core/mail/on-behalf.ts); a throw stops it all. */
    beforeInvite?: () => Promise<void>;
  },
): Promise<{ user: User; invited: boolean } | undefined> => {
  const id = await deps.users.getUserIdByEmail(input.email);
  if (id) {
    const user = await deps.users.getUser(id);
    return user?.role === input.role ? { user, invited: false } : undefined;
  }
  await input.beforeInvite?.();
  const temporaryPassword = deps.temporaryPassword();
  const user = await createAccount(deps, {
    email: input.email,
    role: input.role,
    temporaryPassword,
    beforeProfile: (made) => deps.mailer.send({ to: made.email, ...input.invitation(temporaryPassword, made) }),
  });
  return { user, invited: true };
};
