/**
 * The cloud user pool's password policy (at least 8 characters, upper, lower, digit), which cognito-local
 * does not enforce. Messages are Cognito's own, so the web app shows the same text locally and in AWS.
 */
export const passwordProblem = (password: string): string | undefined => {
  if (password.length < 8) return 'Password did not conform with policy: Password not long enough';
  if (!/[A-Z]/.test(password)) return 'Password did not conform with policy: Password must have uppercase characters';
  if (!/[a-z]/.test(password)) return 'Password did not conform with policy: Password must have lowercase characters';
  if (!/[0-9]/.test(password)) return 'Password did not conform with policy: Password must have numeric characters';
  return undefined;
};

/** The new password an API call (by its x-amz-target operation) would set, if any. */
export const proposedPassword = (operation: string, body: Record<string, unknown>): string | undefined => {
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  switch (operation) {
    case 'SignUp':
    case 'ConfirmForgotPassword':
    case 'AdminSetUserPassword':
      return str(body.Password);
    case 'ChangePassword':
      return str(body.ProposedPassword);
    case 'AdminCreateUser':
      return str(body.TemporaryPassword);
    case 'RespondToAuthChallenge':
      return body.ChallengeName === 'NEW_PASSWORD_REQUIRED'
        ? str((body.ChallengeResponses as Record<string, unknown> | undefined)?.NEW_PASSWORD)
        : undefined;
    default:
      return undefined;
  }
};

/** The policy violation of a call, or undefined when it sets no password or a good one. */
export const policyViolation = (operation: string, body: Record<string, unknown>): string | undefined => {
  const password = proposedPassword(operation, body);
  return password === undefined ? undefined : passwordProblem(password);
};
