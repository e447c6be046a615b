import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { signInForm, type SignInForm as SignInValues } from '@contracts/auth.ts';
import { Button } from '@/components/ui/button.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';

export type { SignInValues };

export interface SignInFormProps {
  /** Resolves when this step is over; a rejection is the caller's to report (the form only leaves its busy state). */
  onSubmit: (values: SignInValues) => Promise<void>;
  /** Prefills the email (after a password reset, for instance). */
  defaultEmail?: string;
}

/** Cognito checks the credentials; the form only checks what the spec requires first: both fields filled in. */
export function SignInForm({ onSubmit, defaultEmail = '' }: SignInFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(signInForm), defaultValues: { email: defaultEmail, password: '' } });

  return (
    // noValidate: our messages (linked to the inputs) replace the browser's bubbles; `required` stays for AT.
    <form
      noValidate
      aria-label="Sign in"
      className="grid gap-4"
      onSubmit={handleSubmit((values) => onSubmit(values).catch(() => undefined))}
    >
      <FormField label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="username" inputMode="email" required placeholder="you@example.com" {...register('email')} />
      </FormField>
      <FormField label="Password" error={errors.password?.message}>
        <Input type="password" autoComplete="current-password" required {...register('password')} />
      </FormField>
      <Button type="submit" className="mt-2 w-full" loading={isSubmitting}>
        {isSubmitting ? 'Signing in...' : 'Sign in'}
      </Button>
    </form>
  );
}
