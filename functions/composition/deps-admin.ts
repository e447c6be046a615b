import type { AuditLog } from '#core/audit-line.ts';
import type { InviteUserDeps } from '#core/admin/users.ts';
import { dynamoAuditLog } from '#data/audit.ts';
import { appOrigin, clock, directoryService, ids, mailer, temporaryPassword, userRepository } from '#functions/composition/deps.ts';

/** The composition of the user management handlers (the directory and the mailer only where an account is created). */
export const inviteUserDeps = (): InviteUserDeps => ({
  users: userRepository(),
  directory: directoryService(),
  mailer: mailer(),
  clock,
  ids,
  appOrigin: appOrigin(),
  temporaryPassword,
});

/** The admin audit log, read by its page (its lines are written by the actions' own repositories). */
export const auditLog = (): AuditLog => dynamoAuditLog();
