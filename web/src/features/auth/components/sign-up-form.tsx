import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { signUpForm, type SignUpForm as SignUpValues, type SignUpFormInput } from '@contracts/auth.ts';
import { Button } from '@/components/ui/button.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { cn } from '@/lib/utils.ts';
import { alertPasswordMismatch, PasswordFields } from './password-fields.tsx';

export type { SignUpValues };

export interface SignUpFormProps {
  /** Resolves when the account exists; a rejection is the caller's to report (the form only leaves its busy state). */
  onSubmit: (values: SignUpValues) => Promise<void>;
}

// A native select: one option needs no custom widget, and it is keyboard and screen-reader friendly as is.
const selectClass = cn(
  'flex h-10 w-full min-w-0 rounded-md border border-input bg-background px-3 py-2 text-base shadow-xs sm:text-sm',
  'outline-none transition-colors focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/50',
);

export function SignUpForm({ onSubmit }: SignUpFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignUpFormInput, unknown, SignUpValues>({
    resolver: zodResolver(signUpForm),
    defaultValues: { email: '', role: 'creator', password: '', confirmPassword: '' } satisfies SignUpFormInput,
  });

  return (
    <form
      noValidate
      aria-label="Create account"
      className="grid gap-4"
      onSubmit={handleSubmit((values) => onSubmit(values).catch(() => undefined), alertPasswordMismatch)}
    >
      <FormField label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="email" inputMode="email" required placeholder="you@example.com" {...register('email')} />
      </FormField>
      <FormField
        label="Account Type"
        error={errors.role?.message}
        description="Learners and Group Leaders are invited by creators."
      >
        <select className={selectClass} required {...register('role')}>
          <option value="creator">Creator</option>
        </select>
      </FormField>
      <PasswordFields
        labels={{ password: 'Password', confirm: 'Confirm Password' }}
        password={register('password')}
        confirmPassword={register('confirmPassword')}
        errors={errors}
      />
      <Button type="submit" className="mt-2 w-full" loading={isSubmitting}>
        {isSubmitting ? 'Creating account...' : 'Create Account'}
      </Button>
    </form>
  );
}
