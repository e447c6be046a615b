import { useQuery } from '@tanstack/react-query';
import { CreditCard, RotateCw, TriangleAlert } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import type { SubscriptionResponse, SubscriptionStatus } from '@contracts/billing.ts';
import { plans } from '@contracts/plans.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { cn } from '@/lib/utils.ts';
import { subscriptionQueryOptions } from '../api/billing-queries.ts';
import { useBillingPortal } from '../api/use-billing-portal.ts';
import { periodLine, planLabel, trialDaysLeftText } from '../format.ts';

const statusLabels: Record<Exclude<SubscriptionStatus, 'none'>, string> = {
  trialing: 'Trial',
  active: 'Active',
  past_due: 'Past due',
  canceled: 'Canceled',
};

const statusStyles: Record<Exclude<SubscriptionStatus, 'none'>, string> = {
  trialing: 'border-transparent bg-sky-100 text-sky-900',
  active: 'border-transparent bg-emerald-100 text-emerald-900',
  past_due: 'border-transparent bg-red-100 text-red-900',
  canceled: 'border-transparent bg-muted text-muted-foreground',
};

/**
 * The creator's plan (spec sections 2-4): which plan, its status (trial days left, active, past due, canceled),
 * when it renews or ends, and 'Manage billing' (the provider's portal). Without a live subscription it offers the
 * plans instead: `pricing` renders the pricing cards for this subscription (whether the trial is still on offer),
 * composed in by app/ (features do not import each other).
 */
export function SubscriptionPanel({ pricing }: { pricing: (subscription: SubscriptionResponse) => ReactNode }) {
  const titleId = useId();
  const subscription = useQuery(subscriptionQueryOptions());

  if (subscription.isPending) {
    return (
      <Card role="region" aria-labelledby={titleId} aria-busy="true">
        <CardHeader>
          <CardTitle id={titleId} className="text-lg">
            Your plan
          </CardTitle>
        </CardHeader>
        <CardContent className="grid gap-3" data-testid="subscription-skeleton">
          <p className="sr-only">Loading your subscription...</p>
          <Skeleton className="h-6 w-40" />
          <Skeleton className="h-4 w-64 max-w-full" />
          <Skeleton className="h-10 w-36" />
        </CardContent>
      </Card>
    );
  }

  if (subscription.isError) {
    return (
      <Card role="region" aria-labelledby={titleId}>
        <CardHeader>
          <CardTitle id={titleId} className="text-lg">
            Your plan
          </CardTitle>
        </CardHeader>
        <CardContent role="alert" className="grid gap-3">
          <p className="text-sm text-muted-foreground">Your subscription could not be loaded.</p>
          <Button variant="outline" className="w-fit" loading={subscription.isFetching} onClick={() => void subscription.refetch()}>
            {!subscription.isFetching && <RotateCw aria-hidden="true" />}
            Try again
          </Button>
        </CardContent>
      </Card>
    );
  }

  const data = subscription.data;
  if (data.status === 'none' || data.status === 'canceled') {
    return <ChoosePlan titleId={titleId} subscription={data} pricing={pricing} />;
  }
  return <CurrentPlan titleId={titleId} subscription={data} />;
}

function ManageBillingButton({ variant = 'outline', children = 'Manage billing' }: { variant?: 'outline' | 'default'; children?: string }) {
  const portal = useBillingPortal();
  return (
    <Button variant={variant} loading={portal.busy} onClick={() => portal.mutate()}>
      {!portal.busy && <CreditCard aria-hidden="true" />}
      {portal.busy ? 'Opening...' : children}
    </Button>
  );
}

function StatusBadge({ status }: { status: Exclude<SubscriptionStatus, 'none'> }) {
  return (
    <Badge data-testid="subscription-status" className={cn('text-xs', statusStyles[status])}>
      {statusLabels[status]}
    </Badge>
  );
}

function CurrentPlan({ titleId, subscription }: { titleId: string; subscription: SubscriptionResponse }) {
  const status = subscription.status as Exclude<SubscriptionStatus, 'none' | 'canceled'>;
  const period = periodLine(subscription);
  return (
    <Card role="region" aria-labelledby={titleId} data-testid="subscription-panel">
      <CardContent className="flex flex-col gap-4 pt-6 sm:flex-row sm:items-center sm:justify-between">
        <div className="grid min-w-0 gap-1.5">
          <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Your plan</p>
          <div className="flex flex-wrap items-center gap-2">
            <CardTitle id={titleId} className="text-lg" data-testid="subscription-plan">
              {planLabel(subscription.tier)}
            </CardTitle>
            <StatusBadge status={status} />
          </div>
          {status === 'trialing' && (
            <p className="font-medium" data-testid="trial-days-left">
              {trialDaysLeftText(subscription.trialDaysLeft)}
            </p>
          )}
          {period && <p className="text-sm text-muted-foreground">{period}</p>}
        </div>
        <div className="shrink-0">
          <ManageBillingButton />
        </div>
      </CardContent>
      {status === 'past_due' && (
        <CardContent>
          <div role="alert" className="flex flex-col gap-3 rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-950 sm:flex-row sm:items-center sm:justify-between">
            <p className="flex gap-2">
              <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-red-700" />
              <span>
                <strong className="font-semibold">Your last payment failed.</strong> Please update your payment method to
                keep your plan.
              </span>
            </p>
            <ManageBillingButton variant="default">Update payment method</ManageBillingButton>
          </div>
        </CardContent>
      )}
    </Card>
  );
}

/** What the panel says above the plans of a creator who has none yet. */
function choosePlanText(subscription: SubscriptionResponse): string {
  const trial = plans.starter.trialDays;
  return subscription.trialAvailable && trial > 0
    ? `Subscribe to create courses and get monthly AI credits. Starter starts with a ${trial}-day free trial.`
    : 'Subscribe to create courses and get monthly AI credits.';
}

function ChoosePlan({
  titleId,
  subscription,
  pricing,
}: {
  titleId: string;
  subscription: SubscriptionResponse;
  pricing: (subscription: SubscriptionResponse) => ReactNode;
}) {
  const canceled = subscription.status === 'canceled';
  return (
    <Card role="region" aria-labelledby={titleId} data-testid="subscription-panel">
      <CardHeader className="gap-2 px-4 sm:px-6">
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle id={titleId} className="text-lg">
            {canceled ? 'Your subscription has been canceled' : 'Choose your plan'}
          </CardTitle>
          {canceled && <StatusBadge status="canceled" />}
        </div>
        <CardDescription>
          {canceled
            ? `Your ${planLabel(subscription.tier)} has ended. Subscribe again to keep creating courses and get monthly AI credits.`
            : choosePlanText(subscription)}
        </CardDescription>
        {canceled && (
          <div className="pt-1">
            <ManageBillingButton />
          </div>
        )}
      </CardHeader>
      {/* Narrower padding on a phone: the plan cards inside carry their own. */}
      <CardContent className="px-3 pt-4 sm:px-6">{pricing(subscription)}</CardContent>
    </Card>
  );
}
