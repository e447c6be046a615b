import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { resetPasswordForm, type ResetPasswordForm as ResetPasswordValues } from '@contracts/auth.ts';
import { Button } from '@/components/ui/button.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { alertPasswordMismatch, PasswordFields } from './password-fields.tsx';

export type { ResetPasswordValues };

export interface ResetPasswordFormProps {
  /** From the emailed link (`/reset-password?code=...&email=...`), when present. */
  defaults: { code: string; email: string };
  /** Resolves when the password is changed; a rejection is the caller's to report. */
  onSubmit: (values: ResetPasswordValues) => Promise<void>;
}

export function ResetPasswordForm({ defaults, onSubmit }: ResetPasswordFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(resetPasswordForm),
    defaultValues: { code: defaults.code, email: defaults.email, password: '', confirmPassword: '' },
  });
  // Arriving from the link, only the new password is left to type.
  const fromLink = defaults.code !== '' && defaults.email !== '';

  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={handleSubmit((values) => onSubmit(values).catch(() => undefined), alertPasswordMismatch)}
    >
      <FormField label="Code" error={errors.code?.message} description="The code from the password reset email.">
        <Input autoComplete="one-time-code" inputMode="numeric" required {...register('code')} />
      </FormField>
      <FormField label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="username" inputMode="email" required {...register('email')} />
      </FormField>
      <PasswordFields
        labels={{ password: 'New password', confirm: 'Confirm new password' }}
        password={register('password')}
        confirmPassword={register('confirmPassword')}
        errors={errors}
        autoFocus={fromLink}
      />
      <Button type="submit" className="mt-2 w-full" loading={isSubmitting}>
        {isSubmitting ? 'Resetting...' : 'Reset Password'}
      </Button>
    </form>
  );
}
