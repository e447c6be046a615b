import { USERS_PAGE_SIZE, type AdminUser, type AdminUserList, type CreateUserBody } from '#contracts/admin-users.ts';
import type { Role } from '#contracts/common.ts';
import { createAccount } from '#core/accounts/create-account.ts';
import { accountInvitationEmail } from '#core/enrollments/invitation-email.ts';
import { ConflictError, NotFoundError } from '#core/errors.ts';
import type { Clock, Directory, Mailer, User, UserRepository } from '#core/ports.ts';

/** User management (admin): the accounts of one role, newest first, accounts created by invitation, and turned off or on. */

const adminUser = ({ id, email, role, createdAt, disabled }: User): AdminUser => ({ id, email, role, createdAt, disabled: disabled === true });

/** GET /api/admin/users: one page of a role's accounts, newest first. */
export const listUsers = async (deps: { users: Pick<UserRepository, 'listByRole'> }, role: Role, cursor: string | undefined): Promise<AdminUserList> => {
  const page = await deps.users.listByRole(role, cursor, USERS_PAGE_SIZE);
  return { items: page.items.map(adminUser), nextCursor: page.nextCursor };
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
  return adminUser(user);
};

/**
 * PATCH /api/admin/users/{userId}: an admin turns an account off (it can no longer sign in or refresh a session, and
 * its sessions are signed out) or on again. The account, its data and the role counters stay; `users_disabled` moves.
 * The sign-in provider changes first, then the profile: a retry after a failure in between completes the change,
 * since both steps are idempotent. An admin cannot turn their own account off (409), so one admin always remains.
 */
export const setUserDisabled = async (
  deps: { users: UserRepository; directory: Directory },
  input: { adminId: string; userId: string; disabled: boolean },
): Promise<AdminUser> => {
  if (input.disabled && input.userId === input.adminId) throw new ConflictError('You cannot disable your own account.');
  const user = await deps.users.getUser(input.userId);
  if (!user) throw new NotFoundError('No account has this id.');
  await deps.directory.setSignInEnabled(user.id, !input.disabled);
  await deps.users.setDisabled(user.id, input.disabled);
  return adminUser({ ...user, disabled: input.disabled });
};
