import { useQuery } from '@tanstack/react-query';
import { RotateCw, Sparkles, TriangleAlert } from 'lucide-react';
import { useId } from 'react';
import type { CreditsResponse } from '@contracts/credits.ts';
import { PlanGate } from '@/components/plan-gate.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { cn } from '@/lib/utils.ts';
import { creditsQueryOptions } from '../api/billing-queries.ts';
import { usePurchaseCredits } from '../api/use-purchase-credits.ts';
import { AiPriceTable, CreditsHistory } from './credits-history.tsx';
import { creditsPercent, formatMonthDay, planLabel } from '../format.ts';

/**
 * SPEC.md "AI credits card": loading skeleton, no-credits message, normal card, low-credits warning; the plan,
 * a bar of the percent of the monthly allocation left, the reset date, and a top-up of 100 credits; then the recent
 * charges and refunds, each AI tool by name, and what each tool costs (issue 36).
 */
export function AiCreditsCard({ className }: { className?: string }) {
  const titleId = useId();
  const credits = useQuery(creditsQueryOptions());

  return (
    <Card className={className} aria-labelledby={titleId} role="region" aria-busy={credits.isPending || undefined}>
      <CardHeader className="flex-row items-center justify-between gap-3">
        <div className="flex min-w-0 items-center gap-2">
          <span className="grid size-8 shrink-0 place-items-center rounded-full bg-muted">
            <Sparkles aria-hidden="true" className="size-4" />
          </span>
          <CardTitle id={titleId} className="text-lg">
            AI Credits
          </CardTitle>
        </div>
        {credits.data && <Badge variant="secondary">{planLabel(credits.data.planType)}</Badge>}
      </CardHeader>
      <CardContent>
        {credits.isPending ? (
          <CreditsSkeleton />
        ) : credits.isError ? (
          <div role="alert" className="grid gap-3">
            <p className="text-sm text-muted-foreground">Your AI credits could not be loaded.</p>
            <Button variant="outline" size="sm" className="w-fit" loading={credits.isFetching} onClick={() => void credits.refetch()}>
              {!credits.isFetching && <RotateCw aria-hidden="true" />}
              Try again
            </Button>
          </div>
        ) : credits.data === null ? (
          <NoCredits />
        ) : (
          <CreditsBalance credits={credits.data} />
        )}
      </CardContent>
    </Card>
  );
}

function CreditsSkeleton() {
  return (
    <div data-testid="credits-skeleton" className="grid gap-3">
      <p className="sr-only">Loading your AI credits...</p>
      <Skeleton className="h-8 w-24" />
      <Skeleton className="h-2 w-full" />
      <Skeleton className="h-4 w-40" />
      <Skeleton className="h-9 w-full" />
    </div>
  );
}

function NoCredits() {
  return (
    <div className="grid gap-1.5">
      <p className="font-medium">No AI credits yet</p>
      <CardDescription>
        AI credits come with a plan: Starter includes 50 a month, Pro 200. Choose a plan to start generating landing
        pages.
      </CardDescription>
    </div>
  );
}

function CreditsBalance({ credits }: { credits: NonNullable<CreditsResponse> }) {
  const { creditsRemaining, creditsUsed, monthlyAllocation, billingPeriodEnd, low, history } = credits;
  const percent = creditsPercent(creditsRemaining, monthlyAllocation);
  const topUp = usePurchaseCredits();
  const barLabelId = useId();

  return (
    <div className="grid gap-4">
      <div>
        <p className="flex items-baseline gap-2">
          <span className="text-3xl font-bold tracking-tight tabular-nums" data-testid="credits-remaining">
            {creditsRemaining}
          </span>
          <span className="text-sm text-muted-foreground">credits remaining</span>
        </p>
      </div>

      {monthlyAllocation > 0 ? (
        <div className="grid gap-2">
          <div className="flex items-center justify-between text-xs text-muted-foreground">
            <span id={barLabelId}>Monthly credits left</span>
            <span className="tabular-nums">{percent}%</span>
          </div>
          <Progress
            value={percent}
            aria-labelledby={barLabelId}
            getValueLabel={() => `${percent}% (${creditsRemaining} of ${monthlyAllocation} credits)`}
            className={cn(low && '[&>div]:bg-amber-700')}
          />
          <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-sm">
            <dt className="text-muted-foreground">Remaining</dt>
            <dd className="text-right tabular-nums" data-testid="credits-ratio">
              {creditsRemaining} / {monthlyAllocation}
            </dd>
            <dt className="text-muted-foreground">Used this period</dt>
            <dd className="text-right tabular-nums">{creditsUsed}</dd>
          </dl>
          <p className="text-sm text-muted-foreground" data-testid="credits-reset">
            Resets {formatMonthDay(billingPeriodEnd)}
          </p>
        </div>
      ) : (
        // A cancelled plan keeps its bought credits but gets no monthly allocation (docs/decisions/0007).
        <p className="text-sm text-muted-foreground" data-testid="credits-no-allocation">
          Your plan has ended, so no monthly credits are added. Credits you hold stay usable.
        </p>
      )}

      {low && (
        <p
          data-testid="credits-low"
          className="flex gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
        >
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-700" />
          <span>
            <strong className="font-semibold">Low credits.</strong> Top up to keep using AI tools.
          </span>
        </p>
      )}

      {/* Buying credits needs a plan (issue 29): after the plan ends, the way to a plan instead. */}
      <PlanGate feature="courses" label="Top up 100 credits" action="top up credits" className="w-full">
        <Button className="w-full" variant={low ? 'default' : 'outline'} loading={topUp.busy} onClick={() => topUp.mutate()}>
          {topUp.busy ? 'Processing...' : 'Top up 100 credits'}
        </Button>
      </PlanGate>

      {/* Issue 36: each AI tool's charge and refund by name, and what each costs before it is run. */}
      {history && <CreditsHistory history={history} />}
      <AiPriceTable />
    </div>
  );
}
