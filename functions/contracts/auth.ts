import * as z from 'zod';

/**
 * The account forms (sign-up, sign-in, password reset, the invited account's first password). Cognito is the
 * server behind them, so these schemas are the client half of its rules: the same password policy as the user
 * pool (lib/constructs/user-directory.ts, and the local shim in front of cognito-local), checked before sending.
 */

/**
 * The password policy, declared once: the Cognito user pool (lib/constructs/user-directory.ts), the local shim in
 * front of cognito-local (lib/local/cognito/password-policy.ts) and the forms' schema below all read it. Its shape
 * is CDK's `PasswordPolicy`.
 */
export const passwordPolicy = {
  minLength: 8,
  requireLowercase: true,
  requireUppercase: true,
  requireDigits: true,
  requireSymbols: false,
} as const;

/** Each character class the policy can require, with how to find it (Cognito's symbol set for `requireSymbols`). */
export const passwordClasses = {
  requireUppercase: /[A-Z]/,
  requireLowercase: /[a-z]/,
  requireDigits: /[0-9]/,
  requireSymbols: /[-^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+]/,
} as const;

export const PASSWORDS_DO_NOT_MATCH = 'Passwords do not match';

/** The only role a visitor may pick for themselves; the pre sign-up trigger refuses any other. */
export const selfSignUpRoles = ['creator'] as const;

const email = z.string().trim().min(1, 'Email is required').pipe(z.email('Enter a valid email address'));

const classHints: Record<keyof typeof passwordClasses, string> = {
  requireUppercase: 'Include an upper-case letter',
  requireLowercase: 'Include a lower-case letter',
  requireDigits: 'Include a digit',
  requireSymbols: 'Include a symbol',
};

/** The pool's policy (passwordPolicy): its length, then each character class it requires, in a stable order. */
export const newPassword = (Object.keys(classHints) as (keyof typeof passwordClasses)[])
  .filter((rule) => passwordPolicy[rule])
  .reduce(
    (schema, rule) => schema.regex(passwordClasses[rule], classHints[rule]),
    z.string().min(1, 'Password is required').min(passwordPolicy.minLength, `Use at least ${passwordPolicy.minLength} characters`),
  );

/** What the user types, not checked against the policy: an old password may predate it. */
const currentPassword = z.string().min(1, 'Password is required');
const confirmation = z.string().min(1, 'Confirm the password');

type PasswordPair = { password: string; confirmPassword: string };

/**
 * Adds the mismatch rule (reported on confirmPassword). It runs whenever both fields are present, even when the
 * password breaks the policy, so the user learns both at once.
 */
const withMatchingPasswords = <T extends z.ZodType<PasswordPair>>(schema: T) =>
  schema.refine((v) => v.password === v.confirmPassword, {
    message: PASSWORDS_DO_NOT_MATCH,
    path: ['confirmPassword'],
    when: ({ value }) => {
      const v = value as Partial<PasswordPair> | undefined;
      return typeof v?.password === 'string' && typeof v.confirmPassword === 'string' && v.confirmPassword !== '';
    },
  });

export const signUpForm = withMatchingPasswords(
  z.object({
    email,
    role: z.enum(selfSignUpRoles),
    password: newPassword,
    confirmPassword: confirmation,
  }),
);
export type SignUpFormInput = z.input<typeof signUpForm>;
export type SignUpForm = z.output<typeof signUpForm>;

export const signInForm = z.object({ email, password: currentPassword });
export type SignInForm = z.output<typeof signInForm>;

export const forgotPasswordForm = z.object({ email });
export type ForgotPasswordForm = z.output<typeof forgotPasswordForm>;

export const resetPasswordForm = withMatchingPasswords(
  z.object({
    code: z.string().trim().min(1, 'Enter the code from the email'),
    email,
    password: newPassword,
    confirmPassword: confirmation,
  }),
);
export type ResetPasswordFormInput = z.input<typeof resetPasswordForm>;
export type ResetPasswordForm = z.output<typeof resetPasswordForm>;

/** An invited account's first sign-in: the temporary password is replaced. */
export const newPasswordForm = withMatchingPasswords(z.object({ password: newPassword, confirmPassword: confirmation }));
export type NewPasswordForm = z.output<typeof newPasswordForm>;
