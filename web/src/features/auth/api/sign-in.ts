import { confirmSignIn, signIn } from 'aws-amplify/auth';
import { loadAuth } from '@/lib/auth.ts';

// Apart from lib/auth.ts because Amplify's sign-in flows (SRP, passkeys, challenges) are most of its weight: only the
// lazy auth screens import this, so they stay out of the initial chunk.

/** Where a password sign-in stands: done, or an invited account that must replace its temporary password. */
export type SignInOutcome = 'signedIn' | 'newPasswordRequired';

/** Steps this app does not offer (MFA, passkeys...); the message is what the sign-in toast shows. */
const unsupportedStep: Record<string, string> = {
  CONFIRM_SIGN_UP: 'This account is not confirmed yet. Check your email for the confirmation message.',
  RESET_PASSWORD: "This account's password must be reset. Use 'Forgot your password?' to choose a new one.",
};

function outcome(isSignedIn: boolean, step: string): SignInOutcome {
  if (isSignedIn || step === 'DONE') return 'signedIn';
  if (step === 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED') return 'newPasswordRequired';
  throw new Error(unsupportedStep[step] ?? `This sign-in needs a step the app does not support (${step}).`);
}

/**
 * Password sign-in. USER_PASSWORD_AUTH (not SRP) because cognito-local has no SRP; the cloud app client
 * allows both. An invited account (created with a temporary password) answers 'newPasswordRequired':
 * the caller then asks for a new password and calls `completeNewPassword`.
 */
export async function signInWithPassword(email: string, password: string): Promise<SignInOutcome> {
  await loadAuth(); // configures Amplify, loaded lazily (lib/auth.ts)
  const result = await signIn({ username: email, password, options: { authFlowType: 'USER_PASSWORD_AUTH' } });
  return outcome(result.isSignedIn, result.nextStep.signInStep);
}

/** Answers Cognito's NEW_PASSWORD_REQUIRED challenge of the sign-in under way. */
export async function completeNewPassword(newPassword: string): Promise<SignInOutcome> {
  await loadAuth(); // configures Amplify, loaded lazily (lib/auth.ts)
  const result = await confirmSignIn({ challengeResponse: newPassword });
  return outcome(result.isSignedIn, result.nextStep.signInStep);
}
