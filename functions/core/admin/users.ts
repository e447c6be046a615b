import { USERS_PAGE_SIZE, type AdminUser, type AdminUserList, type CreateUserBody } from '#contracts/admin-users.ts';
import type { Role } from '#contracts/common.ts';
import { createAccount } from '#core/accounts/create-account.ts';
import { accountInvitationEmail } from '#core/enrollments/invitation-email.ts';
import type { Clock, Directory, Mailer, UserRepository } from '#core/ports.ts';

/** User management (admin): the accounts of one role, newest first, and accounts created by invitation. */

/** GET /api/admin/users: one page of a role's accounts, newest first. */
export const listUsers = async (deps: { users: Pick<UserRepository, 'listByRole'> }, role: Role, cursor: string | undefined): Promise<AdminUserList> => {
  const page = await deps.users.listByRole(role, cursor, USERS_PAGE_SIZE);
  return { items: page.items.map(({ id, email, role: r, createdAt }) => ({ id, email, role: r, createdAt })), nextCursor: page.nextCursor };
};

export interface InviteUserDeps {
  users: UserRepository;
  directory: Directory;
  mailer: Mailer;
  clock: Clock;
  appOrigin: string;
  temporaryPassword: () => string;
}

/**
 * POST /api/admin/users: the sign-in account with a temporary password and the role's group, the profile and counters
 * (createAccount; a taken email is 409), then the invitation with the sign-in link and the password. The account exists
 * before the mail goes: if SES fails, the admin sees the error and the person can still be sent a password reset.
 */
export const inviteUser = async (deps: InviteUserDeps, body: CreateUserBody): Promise<AdminUser> => {
  const temporaryPassword = deps.temporaryPassword();
  const user = await createAccount(deps, { email: body.email, role: body.role, temporaryPassword });
  await deps.mailer.send({ to: user.email, ...accountInvitationEmail({ appOrigin: deps.appOrigin, email: user.email, role: user.role, temporaryPassword }) });
  return user;
};
