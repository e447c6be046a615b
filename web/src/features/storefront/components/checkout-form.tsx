import { CircleCheck, Lock, ShoppingCart } from 'lucide-react';
import { useRef, useState, type ReactNode } from 'react';
import { courseCheckoutBody } from '@contracts/sales.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { errorMessage } from '@/lib/error-message.ts';
import { paths } from '@/lib/paths.ts';
import { SiteLink, useStorefrontLinks } from '../storefront-site.tsx';

/**
 * What a course's buy box and a bundle's (issue 34) share, so that buying either asks and answers alike: the buyer's
 * email and optional coupon, checked as the checkout's contract checks them (a bundle's body is a course's without
 * seats), a refused checkout's message under its field or above the button, the box after paying, and 'Buy now' on a
 * creator's custom domain (the form is on the platform's address).
 */

export const EMAIL_REQUIRED = 'Enter your email: your course and how to sign in go there.';
export const EMAIL_INVALID = 'Enter a valid email address, e.g. name@example.com.';

export type CheckoutField = 'email' | 'couponCode' | 'seats';
type FieldErrors = Partial<Record<CheckoutField, string>>;

/** Where a failed checkout's message belongs: under a field (a bad coupon, an email the server refused) or above the button. */
export const placeError = (error: Error, gone: string): { field?: CheckoutField; message: string } => {
  if (!(error instanceof ApiError)) return { message: errorMessage(error) };
  if (error.code === 'COUPON_INVALID') return { field: 'couponCode', message: error.message };
  if (error.code === 'NOT_FOUND') return { message: gone };
  if (error.code === 'VALIDATION_FAILED' && Array.isArray(error.details)) {
    const issue = (error.details as { path?: string; message?: string }[]).find((d) => d.path === 'email' || d.path === 'couponCode' || d.path === 'seats');
    if (issue) return { field: issue.path as CheckoutField, message: issue.message ?? error.message };
  }
  return { message: error.message };
};

/**
 * The buyer's part of a checkout form: the email and coupon typed, the errors under the fields and above the button.
 * `gone` is what a 404 from the checkout says (the product went off sale meanwhile).
 */
export function useCheckoutForm(gone: string) {
  const [email, setEmail] = useState('');
  const [couponCode, setCouponCode] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string>();
  const inputs = { email: useRef<HTMLInputElement>(null), couponCode: useRef<HTMLInputElement>(null), seats: useRef<HTMLInputElement>(null) };

  return {
    email,
    couponCode,
    errors,
    formError,
    inputs,
    setEmail: (value: string) => {
      setEmail(value);
      setErrors((current) => ({ ...current, email: undefined }));
    },
    setCouponCode: (value: string) => {
      setCouponCode(value);
      setErrors((current) => ({ ...current, couponCode: undefined }));
    },
    /** Clears one field's error as the buyer types in it. */
    clearError: (field: CheckoutField) => setErrors((current) => ({ ...current, [field]: undefined })),
    /** Clears every error (the buyer changed what they buy). */
    clearErrors: () => {
      setErrors({});
      setFormError(undefined);
    },
    /** A refused checkout: its message under the field it names when the form shows that field, else above the button. */
    onError: (error: Error) => {
      const placed = placeError(error, gone);
      const input = placed.field && inputs[placed.field].current;
      if (placed.field && input) {
        setErrors({ [placed.field]: placed.message });
        input.focus();
      } else {
        setFormError(placed.message);
      }
    },
    /**
     * Checks the email and coupon (with `found`, the form's own errors, e.g. the seats), shows what is wrong and
     * focuses its first field; the checkout's email (lower case) and coupon when all is well, else undefined.
     */
    check: (found: FieldErrors = {}): { email: string; couponCode?: string } | undefined => {
      setFormError(undefined);
      const trimmed = email.trim();
      if (trimmed === '') found.email = EMAIL_REQUIRED;
      else if (!courseCheckoutBody.shape.email.safeParse(trimmed).success) found.email = EMAIL_INVALID;
      const coupon = couponCode.trim();
      const parsedCoupon = coupon === '' ? undefined : courseCheckoutBody.shape.couponCode.safeParse(coupon);
      if (parsedCoupon && !parsedCoupon.success) found.couponCode = parsedCoupon.error.issues[0]?.message ?? 'Check the coupon code.';
      setErrors(found);
      const first = (['seats', 'email', 'couponCode'] as const).find((field) => found[field]);
      if (first) {
        inputs[first].current?.focus();
        return undefined;
      }
      return { email: trimmed.toLowerCase(), ...(parsedCoupon?.success ? { couponCode: parsedCoupon.data } : {}) };
    },
  };
}

export type CheckoutForm = ReturnType<typeof useCheckoutForm>;

/** The email (described by `emailDescription`), the optional coupon code, and the message of a refused checkout. */
export function BuyerFields({ form, emailDescription }: { form: CheckoutForm; emailDescription: string }) {
  return (
    <>
      <FormField label="Email" description={emailDescription} error={form.errors.email} required>
        <Input ref={form.inputs.email} type="email" autoComplete="email" required value={form.email} onChange={(e) => form.setEmail(e.target.value)} />
      </FormField>
      <FormField label="Coupon code (optional)" error={form.errors.couponCode}>
        <Input
          ref={form.inputs.couponCode}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          placeholder="e.g. LAUNCH20"
          value={form.couponCode}
          onChange={(e) => form.setCouponCode(e.target.value)}
        />
      </FormField>
      {form.formError && (
        <p role="alert" className="rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm text-destructive">
          {form.formError}
        </p>
      )}
    </>
  );
}

/** Who is paid and through whom, under the button ('Checkout opens on Course Platform' where the button leaves the custom domain). */
export function SecureCheckoutNote({ creatorName, onPlatform = false }: { creatorName: string; onPlatform?: boolean }) {
  return (
    <p className="flex items-start gap-2 text-xs text-muted-foreground">
      <Lock aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
      {onPlatform ? 'Checkout opens on Course Platform, secured by Stripe.' : 'Secure checkout by Stripe.'} You pay {creatorName} directly.
    </p>
  );
}

/** The box on a creator's custom domain: the price (`children`) and 'Buy now' opening the product on the platform's address (`href`). */
export function BuyOnPlatform({ heading, href, creatorName, children }: { heading: string; href: string; creatorName: string; children: ReactNode }) {
  return (
    <Card className="grid gap-5 p-6" data-testid="buy-box">
      <h2 className="sr-only">{heading}</h2>
      {children}
      <Button asChild size="lg" className="w-full">
        <a href={href}>
          <ShoppingCart aria-hidden="true" />
          Buy now
        </a>
      </Button>
      <SecureCheckoutNote creatorName={creatorName} onPlatform />
    </Card>
  );
}

/** The box after paying (`?purchase=success`): what was bought (`title`), where it will be (`children`), and 'Sign in'. */
export function BoughtBox({ title, children }: { title: string; children: ReactNode }) {
  const links = useStorefrontLinks();
  return (
    <Card className="grid gap-3 p-6" data-testid="buy-box">
      <p className="flex items-center gap-2 font-semibold">
        <CircleCheck aria-hidden="true" className="size-5 text-emerald-700" />
        {title}
      </p>
      <p className="text-sm text-muted-foreground">{children}</p>
      <Button asChild className="w-full">
        <SiteLink to={links.platform(paths.login)}>Sign in to start learning</SiteLink>
      </Button>
    </Card>
  );
}
