import { useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from '@/components/ui/toaster.tsx';
import { errorMessage } from '@/lib/error-message.ts';
import { ACCOUNT_DELETED_PARAM, paths, REDIRECT_PARAM } from '@/lib/paths.ts';
import { completeNewPassword, signInWithPassword, type SignInOutcome } from '../api/sign-in.ts';
import { AuthLayout } from '../components/auth-layout.tsx';
import { NewPasswordForm, type NewPasswordValues } from '../components/new-password-form.tsx';
import { SignInForm, type SignInValues } from '../components/sign-in-form.tsx';
import { TextLink } from '../components/text-link.tsx';
import { safeRedirect } from '../safe-redirect.ts';

/** Shown on sign-in after "Delete my account" (the profile page sends the person here, signed out). */
export const ACCOUNT_DELETED_NOTICE =
  'You have been signed out and your account is being deleted. Your personal data will be erased within a few minutes.';

/** `/auth/login`, and for invited accounts the new-password step of the same sign-in. */
export function LoginScreen() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const location = useLocation();
  const [step, setStep] = useState<'credentials' | 'newPassword'>('credentials');
  // After a password reset the screen opens with the address already typed.
  const email = (location.state as { email?: unknown } | null)?.email;

  async function proceed(outcome: SignInOutcome): Promise<void> {
    if (outcome === 'newPasswordRequired') {
      setStep('newPassword');
      return;
    }
    // `/` sends a signed-in user on to their role's dashboard.
    await navigate(safeRedirect(params.get(REDIRECT_PARAM), paths.home), { replace: true });
  }

  async function signIn({ email, password }: SignInValues): Promise<void> {
    let outcome: SignInOutcome;
    try {
      outcome = await signInWithPassword(email, password);
    } catch (error) {
      toast.error('Sign in failed', { description: errorMessage(error) });
      throw error;
    }
    await proceed(outcome);
  }

  async function choosePassword({ password }: NewPasswordValues): Promise<void> {
    let outcome: SignInOutcome;
    try {
      outcome = await completeNewPassword(password);
    } catch (error) {
      toast.error('Sign in failed', { description: errorMessage(error) });
      throw error;
    }
    await proceed(outcome);
  }

  if (step === 'newPassword') {
    return (
      <AuthLayout
        title="Choose a new password"
        description="Your account was created with a temporary password. Choose your own to continue."
      >
        <NewPasswordForm onSubmit={choosePassword} />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Sign in"
      description="Enter your email and password to reach your dashboard."
      footer={
        <>
          Don&apos;t have an account? <TextLink to={paths.signup}>Sign up</TextLink>
        </>
      }
    >
      {params.has(ACCOUNT_DELETED_PARAM) && (
        <p role="status" className="mb-4 rounded-lg border bg-muted/50 p-3 text-sm">
          {ACCOUNT_DELETED_NOTICE}
        </p>
      )}
      <SignInForm onSubmit={signIn} defaultEmail={typeof email === 'string' ? email : ''} />
      <p className="mt-4 text-center text-sm">
        <TextLink to={paths.forgotPassword}>Forgot your password?</TextLink>
      </p>
    </AuthLayout>
  );
}
