import { loadAuth } from './auth.ts';

/**
 * The signed-in user's email verification, through Cognito's own attribute verification with the access token
 * (Amplify's fetchUserAttributes, sendUserAttributeVerificationCode, confirmUserAttribute: GetUser,
 * GetUserAttributeVerificationCode, VerifyUserAttribute). The platform sends mail on a user's behalf only once their
 * email is verified (docs/api.md, "Mail on a user's behalf": 403 EMAIL_NOT_VERIFIED otherwise). Amplify's auth
 * functions load with the call, never with the page.
 */
const amplifyAuth = async () => {
  await loadAuth(); // configures Amplify, loaded lazily (lib/auth.ts)
  return import('aws-amplify/auth');
};

/** Whether Cognito has the signed-in user's email as verified. */
export async function isEmailVerified(): Promise<boolean> {
  const { fetchUserAttributes } = await amplifyAuth();
  return (await fetchUserAttributes()).email_verified === 'true';
}

/** Cognito emails a verification code to the signed-in user's address. */
export async function sendEmailVerificationCode(): Promise<void> {
  const { sendUserAttributeVerificationCode } = await amplifyAuth();
  await sendUserAttributeVerificationCode({ userAttributeKey: 'email' });
}

/** The code back to Cognito: the email is verified from now on. */
export async function confirmEmailVerificationCode(code: string): Promise<void> {
  const { confirmUserAttribute } = await amplifyAuth();
  await confirmUserAttribute({ userAttributeKey: 'email', confirmationCode: code.trim() });
}

export const emailVerifiedQueryKey = ['email-verified'] as const;
