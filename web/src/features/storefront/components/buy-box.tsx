import { ShoppingCart, Users } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { courseCheckoutBody } from '@contracts/sales.ts';
import type { PublicCoursePage } from '@contracts/storefront.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { formatPounds } from '@/lib/format-money.ts';
import { publicCoursePath } from '@/lib/paths.ts';
import { cn } from '@/lib/utils.ts';
import { useBuyCourse } from '../api/storefront-queries.ts';
import { SiteLink, useStorefrontLinks, useStorefrontSite } from '../storefront-site.tsx';
import { BoughtBox, BuyerFields, BuyOnPlatform, SecureCheckoutNote, useCheckoutForm } from './checkout-form.tsx';

export const COURSE_GONE = 'This course is no longer on sale.';
export const SEATS_RANGE = 'Choose 2 to 1,000 seats.';
/** The seat count a team purchase starts at. */
const DEFAULT_SEATS = '5';

type Buyer = 'me' | 'team';

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
  const [seats, setSeats] = useState(DEFAULT_SEATS);
  const form = useCheckoutForm(COURSE_GONE);
  const buy = useBuyCourse(course.id, form.onError);

  if (purchased) {
    return <BoughtBox title="You bought this course">We have emailed you what to do next. Once you are signed in, the course is under My Courses.</BoughtBox>;
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
      <BuyOnPlatform heading="Buy this course" href={links.platform(publicCoursePath(course.id))} creatorName={course.creatorName}>
        <div className="grid gap-1">
          <p className="text-4xl font-bold tracking-tight" data-testid="course-price">
            {formatPounds(course.priceAmount)}
          </p>
          <p className="text-sm text-muted-foreground">
            One payment, no subscription.{course.seatPriceAmount > 0 ? ` Team seats from ${formatPounds(course.seatPriceAmount)} each.` : ''}
          </p>
        </div>
      </BuyOnPlatform>
    );
  }

  const sellsSeats = course.seatPriceAmount > 0;
  const forTeam = sellsSeats && buyer === 'team';
  const typedSeats = seatCount(seats);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const teamSeats = forTeam ? seatCount(seats) : undefined;
    const checked = form.check(forTeam && teamSeats === undefined ? { seats: SEATS_RANGE } : {});
    if (checked) buy.mutate({ ...checked, ...(teamSeats !== undefined ? { seats: teamSeats } : {}) });
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
                  form.clearErrors();
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
          <FormField label="Seats" description="2 to 1,000 people." error={form.errors.seats} required>
            <Input
              ref={form.inputs.seats}
              type="number"
              inputMode="numeric"
              min={2}
              max={1000}
              step={1}
              required
              value={seats}
              onChange={(e) => {
                setSeats(e.target.value);
                form.clearError('seats');
              }}
            />
          </FormField>
        )}
        <BuyerFields form={form} emailDescription={forTeam ? 'You lead the team: your seats and how to sign in are sent here.' : 'Your course and how to sign in are sent here.'} />
        <Button type="submit" size="lg" className="w-full" loading={buy.busy}>
          {!buy.busy && (forTeam ? <Users aria-hidden="true" /> : <ShoppingCart aria-hidden="true" />)}
          {buy.busy ? 'Opening checkout...' : forTeam ? 'Buy for a team' : 'Buy now'}
        </Button>
      </form>
      <SecureCheckoutNote creatorName={course.creatorName} />
    </Card>
  );
}
