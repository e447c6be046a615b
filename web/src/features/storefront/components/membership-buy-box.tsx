import { CircleCheck, Lock, Repeat } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import { membershipCheckoutBody, type PublicMembership } from '@contracts/memberships.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { formatPounds } from '@/lib/format-money.ts';
import { paths, publicMembershipPath } from '@/lib/paths.ts';
import { useSubscribeToMembership } from '../api/storefront-queries.ts';
import { SiteLink, useStorefrontLinks, useStorefrontSite } from '../storefront-site.tsx';
import { EMAIL_INVALID, EMAIL_REQUIRED, placeError } from './checkout-form.tsx';

export const MEMBERSHIP_GONE = 'This membership is no longer on sale.';
export const MEMBERSHIP_NOT_ON_SALE = 'This membership is not taking new members at the moment.';

/**
 * The membership's price a month or a year and 'Subscribe': the subscriber's email (their learner account), then
 * Stripe's hosted checkout in subscription mode on the creator's account. On a creator's custom domain 'Subscribe'
 * opens the membership on the platform's address, where the form is; while the creator cannot take members it says so.
 */
export function MembershipBuyBox({ membership, subscribed }: { membership: PublicMembership; subscribed: boolean }) {
  const site = useStorefrontSite();
  const links = useStorefrontLinks();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string>();
  const [formError, setFormError] = useState<string>();
  const field = useRef<HTMLInputElement>(null);
  const subscribe = useSubscribeToMembership(membership.id, (failure) => {
    const placed = placeError(failure, MEMBERSHIP_GONE);
    if (placed.field === 'email') {
      setError(placed.message);
      field.current?.focus();
    } else {
      setFormError(placed.message);
    }
  });

  if (subscribed) {
    return (
      <Card className="grid gap-3 p-6" data-testid="buy-box">
        <p className="flex items-center gap-2 font-semibold">
          <CircleCheck aria-hidden="true" className="size-5 text-emerald-700" />
          You are a member
        </p>
        <p className="text-sm text-muted-foreground">
          We have emailed you what to do next. Once you are signed in, the membership&apos;s courses are under My Courses, and you manage your subscription from your dashboard.
        </p>
        <Button asChild className="w-full">
          <SiteLink to={links.platform(paths.login)}>Sign in to start learning</SiteLink>
        </Button>
      </Card>
    );
  }

  const price = (
    <div className="grid gap-1">
      <p className="flex flex-wrap items-baseline gap-x-2">
        <span className="text-4xl font-bold tracking-tight" data-testid="membership-price">
          {formatPounds(membership.priceAmount)}
        </span>
        <span className="text-lg text-muted-foreground">a {membership.interval}</span>
      </p>
      <p className="text-sm text-muted-foreground">
        {membership.allCourses ? 'Every course of ' + membership.creatorName + ', including new ones.' : `${membership.courses.length === 1 ? '1 course' : `${membership.courses.length} courses`}.`} Cancel
        whenever you like: you keep access until the end of the {membership.interval} you paid for.
      </p>
    </div>
  );

  if (!membership.onSale) {
    return (
      <Card className="grid gap-4 p-6" data-testid="buy-box">
        {price}
        <Badge variant="secondary">Not taking new members</Badge>
        <p className="text-sm text-muted-foreground">{MEMBERSHIP_NOT_ON_SALE}</p>
      </Card>
    );
  }

  if (site) {
    return (
      <Card className="grid gap-5 p-6" data-testid="buy-box">
        <h2 className="sr-only">Subscribe</h2>
        {price}
        <Button asChild size="lg" className="w-full">
          <a href={links.platform(publicMembershipPath(membership.id))}>
            <Repeat aria-hidden="true" />
            Subscribe
          </a>
        </Button>
        <p className="flex items-start gap-2 text-xs text-muted-foreground">
          <Lock aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
          Checkout opens on Course Platform, secured by Stripe. You pay {membership.creatorName} directly.
        </p>
      </Card>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(undefined);
    const trimmed = email.trim();
    const problem = trimmed === '' ? EMAIL_REQUIRED : !membershipCheckoutBody.shape.email.safeParse(trimmed).success ? EMAIL_INVALID : undefined;
    setError(problem);
    if (problem) {
      field.current?.focus();
      return;
    }
    subscribe.mutate({ email: trimmed.toLowerCase() });
  };

  return (
    <Card className="grid gap-5 p-6" data-testid="buy-box">
      <h2 className="sr-only">Subscribe</h2>
      {price}
      <form noValidate aria-label="Subscribe to this membership" className="grid gap-4" onSubmit={submit}>
        <FormField label="Email" description="Your courses and how to sign in are sent here." error={error} required>
          <Input
            ref={field}
            type="email"
            autoComplete="email"
            required
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setError(undefined);
            }}
          />
        </FormField>
        {formError && (
          <p role="alert" className="rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm text-destructive">
            {formError}
          </p>
        )}
        <Button type="submit" size="lg" className="w-full" loading={subscribe.busy}>
          {!subscribe.busy && <Repeat aria-hidden="true" />}
          {subscribe.busy ? 'Opening checkout...' : 'Subscribe'}
        </Button>
      </form>
      <p className="flex items-start gap-2 text-xs text-muted-foreground">
        <Lock aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
        Secure checkout by Stripe. You pay {membership.creatorName} directly, every {membership.interval} until you cancel.
      </p>
    </Card>
  );
}
