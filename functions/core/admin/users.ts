import { USERS_PAGE_SIZE, type AdminUser, type AdminUserList, type CreateUserBody, type UpdateUserBody } from '#contracts/admin-users.ts';
import type { AuditActor } from '#contracts/audit.ts';
import type { Role } from '#contracts/common.ts';
import { createAccount } from '#core/accounts/create-account.ts';
import { auditLine } from '#core/admin/audit.ts';
import { accountInvitationEmail } from '#core/enrollments/invitation-email.ts';
import { ConflictError, NotFoundError } from '#core/errors.ts';
import type { Clock, Directory, Ids, Mailer, User, UserRepository } from '#core/ports.ts';

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
  ids: Ids;
  appOrigin: string;
  temporaryPassword: () => string;
}

/**
 * POST /api/admin/users: the sign-in account with a temporary password and the role's group, the invitation with the
 * sign-in link and the password, then the profile and counters (createAccount; a taken email is 409). If SES or the
 * database fails on the way, the admin sees the error and trying again finishes the account with a new invitation.
 * The audit line (`account-created`) goes in the profile's transaction: the sign-in account before it is not yet an
 * account of the platform (a retry takes it over), so the line is written when, and only when, the account exists.
 */
export const inviteUser = async (deps: InviteUserDeps, input: { actor: AuditActor; body: CreateUserBody }): Promise<AdminUser> => {
  const { body } = input;
  const temporaryPassword = deps.temporaryPassword();
  const user = await createAccount(deps, {
    email: body.email,
    role: body.role,
    temporaryPassword,
    beforeProfile: (made) => deps.mailer.send({ to: made.email, ...accountInvitationEmail({ appOrigin: deps.appOrigin, email: made.email, role: made.role, temporaryPassword }) }),
    audit: (made) =>
      auditLine(deps, { actor: input.actor, action: 'account-created', target: { kind: 'user', id: made.id, email: made.email }, details: { role: made.role }, at: made.createdAt }),
  });
  return adminUser(user);
};

/**
 * PATCH /api/admin/users/{userId}: an admin turns an account off (it can no longer sign in or refresh a session, and
 * its sessions are signed out) or on again, and/or moves it to another role among admin, group leader and learner
 * (its group, profile and role counters; it is signed out so that its next sign-in carries the new role). A creator's
 * role stays, and no account becomes a creator: a creator's courses, learners and subscription belong to that role.
 * An admin can neither turn off nor re-role their own account (409), so one admin always remains. Each change goes
 * to the sign-in provider first, then the profile: a retry after a failure in between completes it (both idempotent).
 * The account, its data and `usersTotal` stay; `users_disabled` and the role counters move.
 *
 * Each change's audit line (`role-changed`, `account-disabled`, `account-enabled`) is put in the transaction of the
 * profile's change, which comes right after the sign-in provider's: Cognito cannot join a DynamoDB transaction, and
 * the profile's write is conditional on the state it changes from, so a line is written once per change that happened
 * (a retry after a failure in between writes it with the profile; a repeat that changes nothing writes none). A line
 * is never written for a change the sign-in provider refused, and never before it.
 */
export const updateUser = async (
  deps: { users: UserRepository; directory: Directory; clock: Clock; ids: Ids },
  input: { actor: AuditActor; userId: string; changes: UpdateUserBody },
): Promise<AdminUser> => {
  const { disabled, role } = input.changes;
  const self = input.userId === input.actor.id;
  if (self && disabled === true) throw new ConflictError('You cannot disable your own account.');
  const user = await deps.users.getUser(input.userId);
  if (!user) throw new NotFoundError('No account has this id.');
  const moving = role !== undefined && role !== user.role;
  if (moving && self) throw new ConflictError('You cannot change your own role.');
  if (moving && user.role === 'creator') throw new ConflictError("A creator's role cannot be changed: their courses, learners and subscription belong to the creator account.");
  const target = { kind: 'user' as const, id: user.id, email: user.email };
  if (moving) {
    await deps.directory.changeGroup(user.id, user.role, role);
    await deps.users.changeRole(user.id, user.role, role, auditLine(deps, { actor: input.actor, action: 'role-changed', target, details: { from: user.role, to: role } }));
  }
  if (disabled !== undefined) {
    await deps.directory.setSignInEnabled(user.id, !disabled);
    await deps.users.setDisabled(user.id, disabled, auditLine(deps, { actor: input.actor, action: disabled ? 'account-disabled' : 'account-enabled', target }));
  }
  return adminUser({ ...user, role: role ?? user.role, disabled: disabled ?? user.disabled === true });
};
