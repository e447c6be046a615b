import { passwordClasses, passwordPolicy } from '#contracts/auth.ts';

/** Cognito's own words for each rule, so the web app shows the same text locally and in AWS. */
const cognitoMessages: Record<keyof typeof passwordClasses, string> = {
  requireUppercase: 'Password must have uppercase characters',
  requireLowercase: 'Password must have lowercase characters',
  requireDigits: 'Password must have numeric characters',
  requireSymbols: 'Password must have symbol characters',
};

/**
 * The cloud user pool's password policy (functions/contracts/auth.ts `passwordPolicy`, the same constant the CDK pool
 * and the forms use), which cognito-local does not enforce.
 */
export const passwordProblem = (password: string): string | undefined => {
  if (password.length < passwordPolicy.minLength) return 'Password did not conform with policy: Password not long enough';
  for (const rule of Object.keys(cognitoMessages) as (keyof typeof passwordClasses)[]) {
    if (passwordPolicy[rule] && !passwordClasses[rule].test(password)) return `Password did not conform with policy: ${cognitoMessages[rule]}`;
  }
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
