import { CircleCheck, Lock, ShoppingCart } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { bundleCheckoutBody, type PublicBundle } from '@contracts/bundles.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { formatPounds } from '@/lib/format-money.ts';
import { paths, publicBundlePath } from '@/lib/paths.ts';
import { useBuyBundle } from '../api/storefront-queries.ts';
import { SiteLink, useStorefrontLinks, useStorefrontSite } from '../storefront-site.tsx';
import { EMAIL_INVALID, EMAIL_REQUIRED, placeError } from './buy-box.tsx';

export const BUNDLE_GONE = 'This bundle is no longer on sale.';
export const BUNDLE_NOT_ON_SALE = 'This bundle is not for sale at the moment.';

type Field = 'email' | 'couponCode';

/** 'Save £15 (23%)' on the separate prices, or nothing when the bundle saves nothing. */
export const bundleSaving = (bundle: Pick<PublicBundle, 'separateAmount' | 'savingAmount'>): string | undefined =>
  bundle.savingAmount > 0 && bundle.separateAmount > 0
    ? `Save ${formatPounds(bundle.savingAmount)} (${Math.round((bundle.savingAmount / bundle.separateAmount) * 100)}%)`
    : undefined;

/**
 * The bundle's price against its courses' separate prices, and 'Buy now' as on a course's page: the buyer's email (their
 * learner account, enrolled in every course), an optional coupon, the affiliate's `ref` if they came through a link,
 * then Stripe's hosted checkout on the creator's account. On a creator's custom domain 'Buy now' opens the bundle on
 * the platform's address, where the form is; while the creator's plan does not sell it says so.
 */
export function BundleBuyBox({ bundle, purchased }: { bundle: PublicBundle; purchased: boolean }) {
  const site = useStorefrontSite();
  const links = useStorefrontLinks();
  const [email, setEmail] = useState('');
  const [couponCode, setCouponCode] = useState('');
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string>();
  const inputs = { email: useRef<HTMLInputElement>(null), couponCode: useRef<HTMLInputElement>(null) };
  const buy = useBuyBundle(bundle.id, (error) => {
    const placed = placeError(error, BUNDLE_GONE);
    if (placed.field === 'email' || placed.field === 'couponCode') {
      setErrors({ [placed.field]: placed.message });
      inputs[placed.field].current?.focus();
    } else {
      setFormError(placed.message);
    }
  });

  if (purchased) {
    return (
      <Card className="grid gap-3 p-6" data-testid="buy-box">
        <p className="flex items-center gap-2 font-semibold">
          <CircleCheck aria-hidden="true" className="size-5 text-emerald-700" />
          You bought this bundle
        </p>
        <p className="text-sm text-muted-foreground">We have emailed you what to do next. Once you are signed in, every course of the bundle is under My Courses.</p>
        <Button asChild className="w-full">
          <SiteLink to={links.platform(paths.login)}>Sign in to start learning</SiteLink>
        </Button>
      </Card>
    );
  }

  const price = (
    <div className="grid gap-1">
      <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="text-4xl font-bold tracking-tight" data-testid="bundle-price">
          {formatPounds(bundle.priceAmount)}
        </span>
        {bundle.savingAmount > 0 && (
          <span className="text-lg text-muted-foreground">
            <span className="sr-only">instead of </span>
            <s>{formatPounds(bundle.separateAmount)}</s>
          </span>
        )}
      </p>
      {bundleSaving(bundle) && (
        <p>
          <Badge className="bg-emerald-700 text-white" data-testid="bundle-saving">
            {bundleSaving(bundle)}
          </Badge>
        </p>
      )}
      <p className="text-sm text-muted-foreground">
        {bundle.courses.length} courses, one payment, no subscription.
      </p>
    </div>
  );

  if (!bundle.onSale) {
    return (
      <Card className="grid gap-4 p-6" data-testid="buy-box">
        {price}
        <Badge variant="secondary">Not on sale</Badge>
        <p className="text-sm text-muted-foreground">{BUNDLE_NOT_ON_SALE}</p>
      </Card>
    );
  }

  if (site) {
    return (
      <Card className="grid gap-5 p-6" data-testid="buy-box">
        <h2 className="sr-only">Buy this bundle</h2>
        {price}
        <Button asChild size="lg" className="w-full">
          <a href={links.platform(publicBundlePath(bundle.id))}>
            <ShoppingCart aria-hidden="true" />
            Buy now
          </a>
        </Button>
        <p className="flex items-start gap-2 text-xs text-muted-foreground">
          <Lock aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
          Checkout opens on Course Platform, secured by Stripe. You pay {bundle.creatorName} directly.
        </p>
      </Card>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(undefined);
    const found: Partial<Record<Field, string>> = {};
    const trimmed = email.trim();
    if (trimmed === '') found.email = EMAIL_REQUIRED;
    else if (!bundleCheckoutBody.shape.email.safeParse(trimmed).success) found.email = EMAIL_INVALID;
    const coupon = couponCode.trim();
    const parsedCoupon = coupon === '' ? undefined : bundleCheckoutBody.shape.couponCode.safeParse(coupon);
    if (parsedCoupon && !parsedCoupon.success) found.couponCode = parsedCoupon.error.issues[0]?.message ?? 'Check the coupon code.';
    setErrors(found);
    const first = (['email', 'couponCode'] as const).find((field) => found[field]);
    if (first) {
      inputs[first].current?.focus();
      return;
    }
    buy.mutate({ email: trimmed.toLowerCase(), ...(parsedCoupon?.success ? { couponCode: parsedCoupon.data } : {}) });
  };

  return (
    <Card className="grid gap-5 p-6" data-testid="buy-box">
      <h2 className="sr-only">Buy this bundle</h2>
      {price}
      <form noValidate aria-label="Buy this bundle" className="grid gap-4" onSubmit={submit}>
        <FormField label="Email" description="Your courses and how to sign in are sent here." error={errors.email} required>
          <Input
            ref={inputs.email}
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setErrors((current) => ({ ...current, email: undefined }));
            }}
          />
        </FormField>
        <FormField label="Coupon code (optional)" error={errors.couponCode}>
          <Input
            ref={inputs.couponCode}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            placeholder="e.g. LAUNCH20"
            value={couponCode}
            onChange={(e) => {
              setCouponCode(e.target.value);
              setErrors((current) => ({ ...current, couponCode: undefined }));
            }}
          />
        </FormField>
        {formError && (
          <p role="alert" className="rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm text-destructive">
            {formError}
          </p>
        )}
        <Button type="submit" size="lg" className="w-full" loading={buy.busy}>
          {!buy.busy && <ShoppingCart aria-hidden="true" />}
          {buy.busy ? 'Opening checkout...' : 'Buy now'}
        </Button>
      </form>
      <p className="flex items-start gap-2 text-xs text-muted-foreground">
        <Lock aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
        Secure checkout by Stripe. You pay {bundle.creatorName} directly.
      </p>
    </Card>
  );
}
