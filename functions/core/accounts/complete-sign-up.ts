import { ConflictError } from '#core/errors.ts';
import type { Clock, Directory, Metrics, UserRepository } from '#core/ports.ts';
import { SELF_SIGN_UP_ROLE } from '#core/accounts/sign-up-policy.ts';

/**
 * Post confirmation of a self sign-up: the profile (and counters, and the welcome email queued) and the creator group.
 * Only a confirmed sign-up counts: a confirmed password reset fires the same trigger and must change nothing.
 * A redelivered trigger finds the profile already there and only re-applies the (idempotent) group.
 */
export const completeSignUp = async (
  deps: { users: UserRepository; directory: Directory; clock: Clock; metrics: Metrics },
  input: { source: string; userId: string; username: string; email: string },
): Promise<{ created: boolean }> => {
  if (input.source !== 'PostConfirmation_ConfirmSignUp') return { created: false };
  let created = true;
  try {
    await deps.users.createUser({
      id: input.userId,
      email: input.email,
      role: SELF_SIGN_UP_ROLE,
      createdAt: deps.clock.now().toISOString(),
    }, { welcome: true });
  } catch (error) {
    if (!(error instanceof ConflictError)) throw error;
    created = false;
  }
  await deps.directory.addToGroup(input.username, SELF_SIGN_UP_ROLE);
  if (created) deps.metrics.record('SignUp');
  return { created };
};
