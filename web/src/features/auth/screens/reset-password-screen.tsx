import { useNavigate, useSearchParams } from 'react-router-dom';
import { toast } from '@/components/ui/toaster.tsx';
import { errorMessage } from '@/lib/error-message.ts';
import { paths } from '@/lib/paths.ts';
import { confirmPasswordReset } from '../api/password-reset.ts';
import { AuthLayout } from '../components/auth-layout.tsx';
import { ResetPasswordForm, type ResetPasswordValues } from '../components/reset-password-form.tsx';
import { TextLink } from '../components/text-link.tsx';

/** `/reset-password?code=...&email=...`: the target of the reset email's link. */
export function ResetPasswordScreen() {
  const navigate = useNavigate();
  const [params] = useSearchParams();

  async function reset({ email, code, password }: ResetPasswordValues): Promise<void> {
    try {
      await confirmPasswordReset(email, code, password);
    } catch (error) {
      toast.error('Reset failed', { description: errorMessage(error) });
      throw error;
    }
    toast.success('Password reset', { description: 'You can now sign in with your new password.' });
    await navigate(paths.login, { state: { email } });
  }

  return (
    <AuthLayout
      title="Set a new password"
      description="Enter the code from the email and choose a new password."
      footer={
        <>
          Need a new code? <TextLink to={paths.forgotPassword}>Send another link</TextLink>
        </>
      }
    >
      <ResetPasswordForm
        defaults={{ code: params.get('code')?.trim() ?? '', email: params.get('email')?.trim() ?? '' }}
        onSubmit={reset}
      />
    </AuthLayout>
  );
}
