import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { newPasswordForm, type NewPasswordForm as NewPasswordValues } from '@contracts/auth.ts';
import { Button } from '@/components/ui/button.tsx';
import { alertPasswordMismatch, PasswordFields } from './password-fields.tsx';

export type { NewPasswordValues };

export interface NewPasswordFormProps {
  /** Resolves when the new password is set; a rejection is the caller's to report. */
  onSubmit: (values: NewPasswordValues) => Promise<void>;
}

/** An invited account's first sign-in: the temporary password is replaced before going on. */
export function NewPasswordForm({ onSubmit }: NewPasswordFormProps) {
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(newPasswordForm), defaultValues: { password: '', confirmPassword: '' } });

  return (
    <form
      noValidate
      className="grid gap-4"
      onSubmit={handleSubmit((values) => onSubmit(values).catch(() => undefined), alertPasswordMismatch)}
    >
      <PasswordFields
        labels={{ password: 'New password', confirm: 'Confirm new password' }}
        password={register('password')}
        confirmPassword={register('confirmPassword')}
        errors={errors}
        autoFocus
      />
      <Button type="submit" className="mt-2 w-full" loading={isSubmitting}>
        {isSubmitting ? 'Saving...' : 'Set password and continue'}
      </Button>
    </form>
  );
}
