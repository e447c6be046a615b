import { useQuery, useQueryClient } from '@tanstack/react-query';
import { MailCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { confirmEmailVerificationCode, emailVerifiedQueryKey, isEmailVerified, sendEmailVerificationCode } from '@/lib/email-verification.ts';
import { errorMessage } from '@/lib/error-message.ts';
import { cn } from '@/lib/utils.ts';

const WHY = 'Verify your email address so the platform can send invitations and messages on your behalf.';

/**
 * "Verify your email": sends Cognito's verification code to the signed-in user's address, and takes it back
 * (lib/email-verification.ts). `reason` says why it shows (the message of a refused action); `onVerified` runs once the
 * email is verified (the caller lets the refused action be tried again).
 */
export function VerifyEmailPanel({ reason, onVerified, className }: { reason?: string; onVerified?: () => void; className?: string }) {
  const queryClient = useQueryClient();
  const [step, setStep] = useState<'start' | 'sent' | 'verified'>('start');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const send = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await sendEmailVerificationCode();
      setStep('sent');
    } catch (failure) {
      setError(errorMessage(failure, 'The code could not be sent. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{6}$/.test(code.trim())) {
      setError('Enter the 6-digit code from the email.');
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await confirmEmailVerificationCode(code);
      setStep('verified');
      queryClient.setQueryData(emailVerifiedQueryKey, true);
      onVerified?.();
    } catch (failure) {
      setError(errorMessage(failure, 'That code did not work. Check it, or send a new one.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-label="Verify your email" className={cn('grid gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 *:min-w-0', className)}>
      <div className="flex items-start gap-3">
        <MailCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
        <div className="grid gap-1">
          <h2 className="font-semibold">{step === 'verified' ? 'Your email is verified' : 'Verify your email'}</h2>
          <p>{step === 'verified' ? 'Thank you. You can send invitations and messages now.' : (reason ?? WHY)}</p>
        </div>
      </div>
      {step === 'start' && (
        <div>
          <Button type="button" loading={busy} onClick={() => void send()}>
            Send verification code
          </Button>
        </div>
      )}
      {step === 'sent' && (
        <form noValidate aria-label="Enter the verification code" className="flex flex-wrap items-end gap-3 *:min-w-0" onSubmit={(e) => void confirm(e)}>
          <FormField label="Verification code" description="We emailed you a 6-digit code." error={error} className="flex-1 basis-40">
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} value={code} onChange={(e) => {
                setCode(e.target.value);
                setError(undefined);
              }} className="bg-white" />
          </FormField>
          <Button type="submit" loading={busy}>
            Verify email
          </Button>
          <Button type="button" variant="ghost" disabled={busy} onClick={() => void send()}>
            Send a new code
          </Button>
        </form>
      )}
      {error && step === 'start' && <p role="alert">{error}</p>}
    </section>
  );
}

/** The banner a signed-in user sees until their email is verified (nothing while it is checked, nothing once it is). */
export function VerifyEmailBanner() {
  const verified = useQuery({ queryKey: emailVerifiedQueryKey, queryFn: isEmailVerified, staleTime: Infinity, retry: false });
  if (verified.data !== false) return null;
  return <VerifyEmailPanel />;
}
