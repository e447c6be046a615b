import { Check } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { plans, planTypes, type Plan, type PlanType } from '@contracts/plans.ts';
import { Button } from '@/components/ui/button.tsx';
import { toastError } from '@/components/ui/toaster.tsx';
import { isSignedIn } from '@/lib/auth.ts';
import { formatPounds } from '@/lib/format-money.ts';
import { paths, urlOf } from '@/lib/paths.ts';
import { getProfile } from '@/lib/session.ts';
import { cn } from '@/lib/utils.ts';
import { CHECKOUT_FAILED, useCreateCheckout } from '../api/use-create-checkout.ts';

/** SPEC.md section 5: only creators may start a paid-plan checkout. */
export const NON_CREATOR_MESSAGE =
  'Only creators can subscribe to paid plans. Learners and Group Leaders are invited by creators.';

/** What the card says under the name (the feature lists come verbatim from the spec). */
const planSummary: Record<PlanType, string> = {
  starter: 'Everything you need to launch your first courses.',
  pro: 'For growing creators licensing courses to teams.',
};
const popularPlan: PlanType = 'pro';

/** Whether this plan's checkout would start with a free trial for this visitor. */
const offersTrial = (plan: Plan, trialAvailable: boolean): boolean => trialAvailable && plan.trialDays > 0;

/** The line under the price: the trial when this visitor would get one, plain monthly billing otherwise. */
function billingLine(plan: Plan, trialAvailable: boolean): string {
  return offersTrial(plan, trialAvailable) ? `Free for ${plan.trialDays} days, then billed monthly` : 'Billed monthly, cancel anytime';
}

/** The plan's features as this visitor would get them: without the free-trial line when no trial is on offer. */
function featuresFor(plan: Plan, trialAvailable: boolean): readonly string[] {
  return offersTrial(plan, trialAvailable) ? plan.features : plan.features.filter((feature) => !/\bfree trial\b/i.test(feature));
}

/** '£28': every plan is priced in pounds (`currency: 'GBP'`). */
export function formatPrice(plan: Pick<Plan, 'pricePence' | 'currency'>): string {
  return formatPounds(plan.pricePence);
}

/**
 * The Starter and Pro cards with their 'Get Started' buttons. Reusable: the landing page shows it to anonymous
 * visitors, the billing area to creators. 'Get Started' sends an anonymous visitor to sign up, refuses anyone but
 * a creator (alert + inline message), and takes a creator to the hosted checkout.
 *
 * One free trial per creator: a creator who has trialed or paid before (`trialAvailable` false, from their
 * subscription) is never promised the trial, neither under the price nor in the features.
 */
export function PricingPlans({
  headingLevel = 3,
  cancelPath = paths.pricing,
  trialAvailable = true,
  className,
}: {
  headingLevel?: 2 | 3 | 4;
  /** Where the provider's Cancel returns to: the landing page's pricing, or the creator's billing area. */
  cancelPath?: string;
  /** Whether this visitor would still get a plan's free trial (an anonymous visitor would). */
  trialAvailable?: boolean;
  className?: string;
}) {
  const navigate = useNavigate();
  const idPrefix = useId();
  const [refusal, setRefusal] = useState<string | null>(null);
  // Guards the moments before the checkout starts (session and profile checks), when nothing is pending yet.
  const choosing = useRef(false);
  const checkout = useCreateCheckout();
  const processing: PlanType | null = checkout.busy ? (checkout.variables?.planType ?? null) : null;

  async function choose(planType: PlanType): Promise<void> {
    if (choosing.current || processing) return;
    choosing.current = true;
    setRefusal(null);
    try {
      const profile = (await isSignedIn()) ? await getProfile() : null;
      if (!profile) {
        navigate(paths.signup);
        return;
      }
      if (profile.role !== 'creator') {
        window.alert(NON_CREATOR_MESSAGE);
        setRefusal(NON_CREATOR_MESSAGE);
        return;
      }
      checkout.mutate({ planType, successUrl: urlOf(paths.checkoutSuccess), cancelUrl: urlOf(cancelPath) });
    } catch (error) {
      // The profile could not be loaded: the same toast as a failed checkout, the visitor may try again.
      toastError(error, CHECKOUT_FAILED);
    } finally {
      choosing.current = false;
    }
  }

  const Heading = `h${headingLevel}` as const;
  return (
    <div className={cn('mx-auto w-full max-w-4xl', className)}>
      <ul className="grid gap-6 md:grid-cols-2 md:gap-8" aria-label="Plans">
        {planTypes.map((planType) => {
          const plan = plans[planType];
          const popular = planType === popularPlan;
          const headingId = `${idPrefix}-${planType}-name`;
          return (
            <li
              key={planType}
              data-testid={`plan-${planType}`}
              className={cn(
                'relative flex flex-col rounded-2xl border bg-card p-6 text-card-foreground shadow-sm sm:p-8',
                popular && 'border-primary shadow-xl ring-1 ring-primary md:-translate-y-2',
              )}
            >
              {popular && (
                <p className="absolute -top-3.5 left-1/2 -translate-x-1/2 rounded-full bg-primary px-3.5 py-1 text-xs font-semibold tracking-wide whitespace-nowrap text-primary-foreground shadow-sm">
                  Most Popular
                </p>
              )}
              <Heading id={headingId} className="text-lg font-semibold tracking-tight">
                {plan.name}
              </Heading>
              <p className="mt-1.5 text-sm text-muted-foreground">{planSummary[planType]}</p>
              <p className="mt-6 flex items-baseline gap-1">
                <span className="text-5xl font-bold tracking-tight">{formatPrice(plan)}</span>
                <span className="text-base font-medium text-muted-foreground">/{plan.interval}</span>
              </p>
              <p className="mt-1 text-sm text-muted-foreground">{billingLine(plan, trialAvailable)}</p>
              <Button
                size="lg"
                variant={popular ? 'default' : 'outline'}
                className="mt-6 w-full"
                loading={processing === planType}
                disabled={processing !== null && processing !== planType}
                onClick={() => void choose(planType)}
                aria-describedby={headingId}
              >
                {processing === planType ? 'Processing...' : 'Get Started'}
              </Button>
              <ul aria-label={`${plan.name} features`} className="mt-8 flex flex-col gap-3 border-t pt-6 text-sm">
                {featuresFor(plan, trialAvailable).map((feature) => (
                  <li key={feature} className="flex gap-3">
                    <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" strokeWidth={2.5} />
                    <span>{feature}</span>
                  </li>
                ))}
              </ul>
            </li>
          );
        })}
      </ul>
      {refusal && (
        <p role="alert" className="mx-auto mt-6 max-w-xl rounded-lg border border-destructive/40 bg-destructive/5 px-4 py-3 text-center text-sm font-medium text-destructive">
          {refusal}
        </p>
      )}
    </div>
  );
}
