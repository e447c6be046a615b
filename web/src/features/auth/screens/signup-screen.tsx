import { useNavigate } from 'react-router-dom';
import { toast } from '@/components/ui/toaster.tsx';
import { errorMessage } from '@/lib/error-message.ts';
import { paths } from '@/lib/paths.ts';
import { signUpWithEmail } from '../api/sign-up.ts';
import { AuthLayout } from '../components/auth-layout.tsx';
import { SignUpForm, type SignUpValues } from '../components/sign-up-form.tsx';
import { TextLink } from '../components/text-link.tsx';

/** `/auth/signup`: self-registration, creators only (the pre sign-up trigger has the last word). */
export function SignUpScreen() {
  const navigate = useNavigate();

  async function signUp({ email, password, role }: SignUpValues): Promise<void> {
    let outcome;
    try {
      outcome = await signUpWithEmail(email, password, role);
    } catch (error) {
      toast.error('Sign up failed', { description: errorMessage(error) });
      throw error;
    }
    if (outcome === 'ready') {
      toast.success('Success!', { description: 'Account created successfully! You can now sign in.' });
    } else {
      // Not expected (the trigger confirms self sign-ups), but then the truth is more useful than the usual text.
      toast.success('Success!', { description: 'Account created. Confirm it from the email we sent, then sign in.' });
    }
    await navigate(paths.login, { state: { email } });
  }

  return (
    <AuthLayout
      title="Create an account"
      description="Sign up as a creator to build and license your courses."
      footer={
        <>
          Already have an account? <TextLink to={paths.login}>Sign in</TextLink>
        </>
      }
    >
      <SignUpForm onSubmit={signUp} />
    </AuthLayout>
  );
}
