import { useId } from 'react';
import type { FieldErrors, UseFormRegisterReturn } from 'react-hook-form';
import { PASSWORDS_DO_NOT_MATCH } from '@contracts/auth.ts';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';

export const PASSWORD_POLICY_HINT = 'At least 8 characters, with an upper-case letter, a lower-case letter and a digit.';

type PasswordPairErrors = FieldErrors<{ password: string; confirmPassword: string }>;

/** Whether the form was refused because the two passwords differ (the spec's alert case). */
export function isPasswordMismatch(errors: PasswordPairErrors): boolean {
  return errors.confirmPassword?.message === PASSWORDS_DO_NOT_MATCH;
}

/**
 * The spec's "alert 'Passwords do not match'": a native dialog. The same text also stays next to the form
 * (PasswordFields, role="alert") for whoever dismissed the dialog or never saw it.
 */
export function alertPasswordMismatch(errors: PasswordPairErrors): void {
  if (isPasswordMismatch(errors)) window.alert(PASSWORDS_DO_NOT_MATCH);
}

export interface PasswordFieldsProps {
  labels: { password: string; confirm: string };
  password: UseFormRegisterReturn<'password'>;
  confirmPassword: UseFormRegisterReturn<'confirmPassword'>;
  errors: PasswordPairErrors;
  autoFocus?: boolean;
}

/** A new password under the pool's policy, typed twice. */
export function PasswordFields({ labels, password, confirmPassword, errors, autoFocus }: PasswordFieldsProps) {
  const mismatchId = useId();
  const mismatch = isPasswordMismatch(errors);
  return (
    <>
      <FormField label={labels.password} error={errors.password?.message} description={PASSWORD_POLICY_HINT}>
        <Input type="password" autoComplete="new-password" required autoFocus={autoFocus} {...password} />
      </FormField>
      {/* The mismatch message is the alert below, not a field error, so the text appears once on the page. */}
      <FormField label={labels.confirm} error={mismatch ? undefined : errors.confirmPassword?.message}>
        <Input
          type="password"
          autoComplete="new-password"
          required
          {...(mismatch ? { 'aria-invalid': true, 'aria-describedby': mismatchId } : {})}
          {...confirmPassword}
        />
      </FormField>
      {mismatch && (
        <p
          id={mismatchId}
          role="alert"
          className="rounded-md border border-destructive/40 bg-destructive/5 px-3 py-2 text-sm font-medium text-destructive"
        >
          {PASSWORDS_DO_NOT_MATCH}
        </p>
      )}
    </>
  );
}
