import { useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from '@/components/ui/toaster.tsx';
import { signInWithPassword } from '@/lib/auth-sign-in.ts';
import { safeRedirect } from '@/lib/safe-redirect.ts';
import { AuthLayout } from '../components/auth-layout.tsx';
import { SignInForm, type SignInValues } from '../components/sign-in-form.tsx';

export function LoginScreen() {
  const navigate = useNavigate();
  const [params] = useSearchParams();

  async function signIn({ email, password }: SignInValues): Promise<void> {
    try {
      await signInWithPassword(email, password);
    } catch (error) {
      toast.error('Sign in failed', { description: error instanceof Error ? error.message : String(error) });
      throw error;
    }
    await navigate(safeRedirect(params.get('redirectTo')), { replace: true });
  }

  return (
    <AuthLayout title="Sign in" description="Enter your email and password to reach your dashboard.">
      <SignInForm onSubmit={signIn} />
    </AuthLayout>
  );
}
