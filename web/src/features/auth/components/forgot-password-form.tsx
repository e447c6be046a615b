import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { forgotPasswordForm, type ForgotPasswordForm as ForgotPasswordValues } from '@contracts/auth.ts';
import { Button } from '@/components/ui/button.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';

export type { ForgotPasswordValues };

export interface ForgotPasswordFormProps {
  /** Resolves when the reset email is on its way; a rejection is the caller's to report. */
  onSubmit: (values: ForgotPasswordValues) => Promise<void>;
}

export function ForgotPasswordForm({ onSubmit }: ForgotPasswordFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(forgotPasswordForm), defaultValues: { email: '' } });

  return (
    <form
      noValidate
      aria-label="Reset password"
      className="grid gap-4"
      onSubmit={handleSubmit((values) => onSubmit(values).catch(() => undefined))}
    >
      <FormField label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" inputMode="email" required placeholder="you@example.com" {...register('email')} />
      </FormField>
      <Button type="submit" className="mt-2 w-full" loading={isSubmitting}>
        {isSubmitting ? 'Sending...' : 'Send Reset Link'}
      </Button>
    </form>
  );
}
