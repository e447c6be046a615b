import type { InviteUserDeps } from '#core/admin/users.ts';
import { appOrigin, clock, directoryService, mailer, temporaryPassword, userRepository } from '#functions/composition/deps.ts';

/** The composition of the user management handlers (the directory and the mailer only where an account is created). */
export const inviteUserDeps = (): InviteUserDeps => ({
  users: userRepository(),
  directory: directoryService(),
  mailer: mailer(),
  clock,
  appOrigin: appOrigin(),
  temporaryPassword,
});
