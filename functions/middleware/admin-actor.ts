import type { AuditActor } from '#contracts/audit.ts';
import { ForbiddenError } from '#core/errors.ts';
import { NO_PROFILE_MESSAGE, storedProfile } from '#middleware/account.ts';

/**
 * The admin calling an admin route, as the audit log names them (id and email): from the profile the middleware's
 * account check has just read (remembered for a few seconds, middleware/account.ts), so it costs no second read.
 */
export const adminActor = async (userId: string): Promise<AuditActor> => {
  const profile = await storedProfile(userId);
  if (!profile) throw new ForbiddenError(NO_PROFILE_MESSAGE);
  return { id: profile.id, email: profile.email };
};
