import { ShoppingCart } from 'lucide-react';
import type { FormEvent } from 'react';
import type { PublicBundle } from '@contracts/bundles.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { formatPounds } from '@/lib/format-money.ts';
import { publicBundlePath } from '@/lib/paths.ts';
import { useBuyBundle } from '../api/storefront-queries.ts';
import { useStorefrontLinks, useStorefrontSite } from '../storefront-site.tsx';
import { BoughtBox, BuyerFields, BuyOnPlatform, SecureCheckoutNote, useCheckoutForm } from './checkout-form.tsx';

export const BUNDLE_GONE = 'This bundle is no longer on sale.';
export const BUNDLE_NOT_ON_SALE = 'This bundle is not for sale at the moment.';

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
  const form = useCheckoutForm(BUNDLE_GONE);
  const buy = useBuyBundle(bundle.id, form.onError);

  if (purchased) {
    return <BoughtBox title="You bought this bundle">We have emailed you what to do next. Once you are signed in, every course of the bundle is under My Courses.</BoughtBox>;
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
      <BuyOnPlatform heading="Buy this bundle" href={links.platform(publicBundlePath(bundle.id))} creatorName={bundle.creatorName}>
        {price}
      </BuyOnPlatform>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = form.check();
    if (checked) buy.mutate(checked);
  };

  return (
    <Card className="grid gap-5 p-6" data-testid="buy-box">
      <h2 className="sr-only">Buy this bundle</h2>
      {price}
      <form noValidate aria-label="Buy this bundle" className="grid gap-4" onSubmit={submit}>
        <BuyerFields form={form} emailDescription="Your courses and how to sign in are sent here." />
        <Button type="submit" size="lg" className="w-full" loading={buy.busy}>
          {!buy.busy && <ShoppingCart aria-hidden="true" />}
          {buy.busy ? 'Opening checkout...' : 'Buy now'}
        </Button>
      </form>
      <SecureCheckoutNote creatorName={bundle.creatorName} />
    </Card>
  );
}
