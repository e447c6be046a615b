import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import * as z from 'zod';
import { Button } from '@/components/ui/button.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';

/** Cognito checks the credentials; here only what the spec requires before sending: both fields filled in. */
export const signInSchema = z.object({
  email: z.string().trim().min(1, 'Email is required').pipe(z.email('Enter a valid email address')),
  password: z.string().min(1, 'Password is required'),
});
export type SignInValues = z.output<typeof signInSchema>;

export interface SignInFormProps {
  /** Resolves when signed in; a rejection is the caller's to report (the form only leaves its busy state). */
  onSubmit: (values: SignInValues) => Promise<void>;
}

export function SignInForm({ onSubmit }: SignInFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(signInSchema), defaultValues: { email: '', password: '' } });

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
