import { CircleCheck, Lock, ShoppingCart, Users } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { courseCheckoutBody } from '@contracts/sales.ts';
import type { PublicCoursePage } from '@contracts/storefront.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { errorMessage } from '@/lib/error-message.ts';
import { formatPounds } from '@/lib/format-money.ts';
import { paths, publicCoursePath } from '@/lib/paths.ts';
import { cn } from '@/lib/utils.ts';
import { useBuyCourse } from '../api/storefront-queries.ts';
import { SiteLink, useStorefrontLinks, useStorefrontSite } from '../storefront-site.tsx';

export const EMAIL_REQUIRED = 'Enter your email: your course and how to sign in go there.';
export const EMAIL_INVALID = 'Enter a valid email address, e.g. name@example.com.';
export const COURSE_GONE = 'This course is no longer on sale.';
/** The confirmation after paying (`?purchase=success`): its lead and the rest. */
export const PURCHASE_RECEIVED = 'Payment received.';
export const PURCHASE_NEXT = "Check your email: we've sent you how to sign in and start learning.";
export const SEATS_RANGE = 'Choose 2 to 1,000 seats.';
/** The seat count a team purchase starts at. */
const DEFAULT_SEATS = '5';

type Field = 'email' | 'couponCode' | 'seats';
type Buyer = 'me' | 'team';

/** Where a failed checkout's message belongs: under a field (a bad coupon, an email the server refused) or above the button. */
export const placeError = (error: Error, gone: string = COURSE_GONE): { field?: Field; message: string } => {
  if (!(error instanceof ApiError)) return { message: errorMessage(error) };
  if (error.code === 'COUPON_INVALID') return { field: 'couponCode', message: error.message };
  if (error.code === 'NOT_FOUND') return { message: gone };
  if (error.code === 'VALIDATION_FAILED' && Array.isArray(error.details)) {
    const issue = (error.details as { path?: string; message?: string }[]).find((d) => d.path === 'email' || d.path === 'couponCode' || d.path === 'seats');
    if (issue) return { field: issue.path as Field, message: issue.message ?? error.message };
  }
  return { message: error.message };
};

/** A whole number of seats in the contract's range, or undefined. */
const seatCount = (typed: string): number | undefined => {
  const parsed = courseCheckoutBody.shape.seats.safeParse(/^\d+$/.test(typed.trim()) ? Number(typed.trim()) : NaN);
  return parsed.success ? parsed.data : undefined;
};

/**
 * The course's price and 'Buy now': the buyer's email (their learner account), an optional coupon, then Stripe's
 * hosted checkout on the creator's account. A course with a seat price can also be bought for a team: a seat count
 * (2 to 1,000) and its total. A course with no price says it is not on sale; after paying, the page says the payment
 * arrived and where the sign-in details went. On a creator's custom domain the checkout is not here (the domain
 * serves their storefront's pages and public reads only): 'Buy now' opens the course on the platform's own address,
 * where the form is.
 */
export function BuyBox({ course, purchased }: { course: PublicCoursePage; purchased: boolean }) {
  const site = useStorefrontSite();
  const links = useStorefrontLinks();
  const [buyer, setBuyer] = useState<Buyer>('me');
  const [email, setEmail] = useState('');
  const [couponCode, setCouponCode] = useState('');
  const [seats, setSeats] = useState(DEFAULT_SEATS);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string>();
  const inputs = { email: useRef<HTMLInputElement>(null), couponCode: useRef<HTMLInputElement>(null), seats: useRef<HTMLInputElement>(null) };
  const buy = useBuyCourse(course.id, (error) => {
    const placed = placeError(error);
    if (placed.field) {
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
          You bought this course
        </p>
        <p className="text-sm text-muted-foreground">We have emailed you what to do next. Once you are signed in, the course is under My Courses.</p>
        <Button asChild className="w-full">
          <SiteLink to={links.platform(paths.login)}>Sign in to start learning</SiteLink>
        </Button>
      </Card>
    );
  }

  if (course.priceAmount === 0) {
    return (
      <Card className="grid gap-3 p-6" data-testid="buy-box">
        <Badge variant="secondary">Not on sale</Badge>
        <p className="text-sm text-muted-foreground">
          This course is not for sale at the moment.
          {course.creatorSlug && (
            <>
              {' '}
              See what else{' '}
              <SiteLink to={links.creator(course.creatorSlug)} className="font-medium text-foreground underline underline-offset-4">
                {course.creatorName}
              </SiteLink>{' '}
              offers.
            </>
          )}
        </p>
      </Card>
    );
  }

  if (site) {
    return (
      <Card className="grid gap-5 p-6" data-testid="buy-box">
        <h2 className="sr-only">Buy this course</h2>
        <div className="grid gap-1">
          <p className="text-4xl font-bold tracking-tight" data-testid="course-price">
            {formatPounds(course.priceAmount)}
          </p>
          <p className="text-sm text-muted-foreground">
            One payment, no subscription.{course.seatPriceAmount > 0 ? ` Team seats from ${formatPounds(course.seatPriceAmount)} each.` : ''}
          </p>
        </div>
        <Button asChild size="lg" className="w-full">
          <a href={links.platform(publicCoursePath(course.id))}>
            <ShoppingCart aria-hidden="true" />
            Buy now
          </a>
        </Button>
        <p className="flex items-start gap-2 text-xs text-muted-foreground">
          <Lock aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
          Checkout opens on Course Platform, secured by Stripe. You pay {course.creatorName} directly.
        </p>
      </Card>
    );
  }

  const sellsSeats = course.seatPriceAmount > 0;
  const forTeam = sellsSeats && buyer === 'team';
  const typedSeats = seatCount(seats);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(undefined);
    const found: Partial<Record<Field, string>> = {};
    const trimmed = email.trim();
    if (trimmed === '') found.email = EMAIL_REQUIRED;
    else if (!courseCheckoutBody.shape.email.safeParse(trimmed).success) found.email = EMAIL_INVALID;
    const coupon = couponCode.trim();
    const parsedCoupon = coupon === '' ? undefined : courseCheckoutBody.shape.couponCode.safeParse(coupon);
    if (parsedCoupon && !parsedCoupon.success) found.couponCode = parsedCoupon.error.issues[0]?.message ?? 'Check the coupon code.';
    const teamSeats = forTeam ? seatCount(seats) : undefined;
    if (forTeam && teamSeats === undefined) found.seats = SEATS_RANGE;
    setErrors(found);
    const first = (['seats', 'email', 'couponCode'] as const).find((field) => found[field]);
    if (first) {
      inputs[first].current?.focus();
      return;
    }
    buy.mutate({
      email: trimmed.toLowerCase(),
      ...(parsedCoupon?.success ? { couponCode: parsedCoupon.data } : {}),
      ...(teamSeats !== undefined ? { seats: teamSeats } : {}),
    });
  };

  return (
    <Card className="grid gap-5 p-6" data-testid="buy-box">
      <h2 className="sr-only">Buy this course</h2>
      {sellsSeats && (
        <fieldset className="grid grid-cols-2 gap-1 rounded-lg bg-muted p-1">
          <legend className="sr-only">Who is it for?</legend>
          {(
            [
              ['me', 'For me'],
              ['team', 'Buy for a team'],
            ] as const
          ).map(([value, label]) => (
            <label
              key={value}
              className={cn(
                'flex cursor-pointer items-center justify-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap text-muted-foreground transition-colors',
                'has-[:checked]:bg-background has-[:checked]:text-foreground has-[:checked]:shadow-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
              )}
            >
              <input
                type="radio"
                name="buyer"
                value={value}
                checked={buyer === value}
                onChange={() => {
                  setBuyer(value);
                  setErrors({});
                  setFormError(undefined);
                }}
                className="sr-only"
              />
              {value === 'team' && <Users aria-hidden="true" className="size-4 shrink-0" />}
              {label}
            </label>
          ))}
        </fieldset>
      )}
      <div className="grid gap-1" aria-live="polite">
        <p className="text-4xl font-bold tracking-tight" data-testid="course-price">
          {forTeam ? (typedSeats ? formatPounds(course.seatPriceAmount * typedSeats) : '–') : formatPounds(course.priceAmount)}
        </p>
        <p className="text-sm text-muted-foreground">
          {forTeam
            ? `${formatPounds(course.seatPriceAmount)} a seat${typedSeats ? ` × ${typedSeats.toLocaleString('en-GB')} seats` : ''}. You assign the seats to your team.`
            : 'One payment, no subscription.'}
        </p>
      </div>
      <form noValidate aria-label={forTeam ? 'Buy for a team' : 'Buy this course'} className="grid gap-4" onSubmit={submit}>
        {forTeam && (
          <FormField label="Seats" description="2 to 1,000 people." error={errors.seats} required>
            <Input
              ref={inputs.seats}
              type="number"
              inputMode="numeric"
              min={2}
              max={1000}
              step={1}
              required
              value={seats}
              onChange={(e) => {
                setSeats(e.target.value);
                setErrors((current) => ({ ...current, seats: undefined }));
              }}
            />
          </FormField>
        )}
        <FormField
          label="Email"
          description={forTeam ? 'You lead the team: your seats and how to sign in are sent here.' : 'Your course and how to sign in are sent here.'}
          error={errors.email}
          required
        >
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
          {!buy.busy && (forTeam ? <Users aria-hidden="true" /> : <ShoppingCart aria-hidden="true" />)}
          {buy.busy ? 'Opening checkout...' : forTeam ? 'Buy for a team' : 'Buy now'}
        </Button>
      </form>
      <p className="flex items-start gap-2 text-xs text-muted-foreground">
        <Lock aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
        Secure checkout by Stripe. You pay {course.creatorName} directly.
      </p>
    </Card>
  );
}
