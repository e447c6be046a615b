import { confirmResetPassword, resetPassword } from 'aws-amplify/auth';
import { loadAuth } from '@/lib/auth.ts';

// Imported only by the lazy password-reset screens.

/** Asks Cognito to email a reset code; the CustomMessage trigger turns it into a link to /reset-password. */
export async function requestPasswordReset(email: string): Promise<void> {
  await loadAuth(); // configures Amplify, loaded lazily (lib/auth.ts)
  await resetPassword({ username: email });
}

/** Sets the new password with the emailed code. */
export async function confirmPasswordReset(email: string, code: string, newPassword: string): Promise<void> {
  await loadAuth(); // configures Amplify, loaded lazily (lib/auth.ts)
  await confirmResetPassword({ username: email, confirmationCode: code, newPassword });
}
