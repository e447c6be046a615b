import { MailCheck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { errorMessage } from '@/lib/error-message.ts';
import { paths } from '@/lib/paths.ts';
import { requestPasswordReset } from '../api/password-reset.ts';
import { AuthLayout } from '../components/auth-layout.tsx';
import { ForgotPasswordForm, type ForgotPasswordValues } from '../components/forgot-password-form.tsx';
import { TextLink } from '../components/text-link.tsx';

/** `/auth/forgot-password`: the form, then (only without an error) the "sent" confirmation in its place. */
export function ForgotPasswordScreen() {
  const [sent, setSent] = useState(false);

  async function send({ email }: ForgotPasswordValues): Promise<void> {
    try {
      await requestPasswordReset(email);
    } catch (error) {
      toast.error('Reset failed', { description: errorMessage(error) });
      throw error;
    }
    toast.success('Check your email', { description: "We've sent you a password reset link." });
    setSent(true);
  }

  if (sent) {
    return (
      <AuthLayout title="Reset your password" description="The link in the email lets you choose a new password.">
        <div className="grid justify-items-center gap-4 text-center">
          <MailCheck aria-hidden="true" className="size-10 text-muted-foreground" />
          <p role="status" className="text-sm font-medium">
            Check your email for a password reset link
          </p>
          <Button asChild variant="outline" className="w-full">
            <Link to={paths.login}>Back to Sign In</Link>
          </Button>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Reset your password"
      description="Enter the email of your account and we will send you a link to choose a new password."
      footer={
        <>
          Remember your password? <TextLink to={paths.login}>Sign in</TextLink>
        </>
      }
    >
      <ForgotPasswordForm onSubmit={send} />
    </AuthLayout>
  );
}
