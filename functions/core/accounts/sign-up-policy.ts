import { ForbiddenError } from '#core/errors.ts';

export const SELF_SIGN_UP_ROLE = 'creator';
export const SELF_SIGN_UP_REFUSED =
  'Only creator accounts can sign up. Learners and Group Leaders are invited by creators; admins are created by an admin.';

export interface SignUpAttempt {
  /** Cognito's triggerSource, e.g. PreSignUp_SignUp, PreSignUp_AdminCreateUser. */
  source: string;
  attributes: Record<string, string | undefined>;
  /** clientMetadata and validationData: where a client puts the chosen role. */
  metadata: Record<string, string | undefined>;
}

/**
 * Pre sign-up rule: self-registration makes creators only. A role other than creator asked for anywhere
 * (an attribute or client metadata) is refused. Accounts that an admin or a creator creates
 * (PreSignUp_AdminCreateUser) pass: their role comes from that call, never from the client.
 * Returns whether the account is confirmed at once (self sign-up: yes, so "You can now sign in" holds).
 */
export const checkSignUp = (attempt: SignUpAttempt): { autoConfirm: boolean } => {
  if (attempt.source === 'PreSignUp_AdminCreateUser') return { autoConfirm: false };
  const asked = [
    attempt.attributes['custom:role'],
    attempt.attributes['role'],
    attempt.metadata['role'],
    attempt.metadata['custom:role'],
  ].filter((r): r is string => r !== undefined && r !== '');
  if (asked.some((role) => role.trim().toLowerCase() !== SELF_SIGN_UP_ROLE)) {
    throw new ForbiddenError(SELF_SIGN_UP_REFUSED);
  }
  return { autoConfirm: true };
};
