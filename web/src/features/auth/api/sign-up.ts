import { signUp } from 'aws-amplify/auth';
import { loadAuth } from '@/lib/auth.ts';

// Imported only by the lazy sign-up screen (Amplify's sign-up code stays out of the initial chunk).

/** 'ready': the account can sign in now; 'confirmationRequired': Cognito still wants the emailed code. */
export type SignUpOutcome = 'ready' | 'confirmationRequired';

/**
 * Self-registration. The chosen role travels as client metadata: the pre sign-up trigger decides (creators
 * only) and confirms the account at once, so Amplify normally answers with the step DONE.
 */
export async function signUpWithEmail(email: string, password: string, role: string): Promise<SignUpOutcome> {
  await loadAuth(); // configures Amplify, loaded lazily (lib/auth.ts)
  const result = await signUp({
    username: email,
    password,
    options: { userAttributes: { email }, clientMetadata: { role } },
  });
  return result.isSignUpComplete || result.nextStep.signUpStep === 'DONE' ? 'ready' : 'confirmationRequired';
}
