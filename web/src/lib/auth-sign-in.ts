import { signIn } from 'aws-amplify/auth';

// Apart from auth.ts because Amplify's sign-in flows (SRP, passkeys, challenges) are most of its weight: only the
// lazy sign-in screen imports this, so they stay out of the initial chunk.

export class AuthStepRequiredError extends Error {
  override name = 'AuthStepRequiredError';
  constructor(readonly step: string) {
    super(`Sign-in needs another step (${step})`);
  }
}

/**
 * Password sign-in. USER_PASSWORD_AUTH (not SRP) because cognito-local has no SRP; the cloud app client
 * allows both. Further steps (a new password for invited accounts) surface as AuthStepRequiredError.
 */
export async function signInWithPassword(email: string, password: string): Promise<void> {
  const result = await signIn({ username: email, password, options: { authFlowType: 'USER_PASSWORD_AUTH' } });
  if (!result.isSignedIn) throw new AuthStepRequiredError(result.nextStep.signInStep);
}
