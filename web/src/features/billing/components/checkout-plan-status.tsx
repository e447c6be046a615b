import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import type { SubscriptionResponse } from '@contracts/billing.ts';
import { Spinner } from '@/components/ui/spinner.tsx';
import { creditsQueryKey, subscriptionQueryOptions } from '../api/billing-queries.ts';
import { billedNowLine, periodLine, planLabel, trialDaysLeftText } from '../format.ts';

/** How often, and how long, the success page asks whether the payment's webhook has landed. */
export const POLL_INTERVAL_MS = 1_500;
export const POLL_TIMEOUT_MS = 20_000;

const live = (s: SubscriptionResponse | undefined): s is SubscriptionResponse =>
  s?.status === 'trialing' || s?.status === 'active' || s?.status === 'past_due';

/** 'Starter Plan — 14 days left in your trial' / 'Pro Plan — active' */
export function planSummary(s: SubscriptionResponse): string {
  const state = s.status === 'trialing' ? trialDaysLeftText(s.trialDaysLeft) : s.status === 'past_due' ? 'payment due' : 'active';
  return `${planLabel(s.tier)} — ${state}`;
}

/**
 * How the plan is billed, under its summary: a trial's end and first charge ('Free until Dec 5, 2026, then
 * £28/month'), or for a plan that started without a trial, that it was billed now. Nothing for a failed payment
 * (the summary says 'payment due').
 */
function billingSummary(s: SubscriptionResponse, justPaid: boolean): string | null {
  if (s.status === 'trialing') return periodLine(s);
  if (s.status === 'active') return justPaid ? billedNowLine(s) : periodLine(s);
  return null;
}

/**
 * The plan, once the provider's webhook has recorded it. This page grants nothing (the webhook does): after a
 * checkout (`?session_id=`) it asks GET /api/me/subscription a few times, and says so gracefully if it takes longer.
 */
export function CheckoutPlanStatus({ awaitingPayment }: { awaitingPayment: boolean }) {
  const queryClient = useQueryClient();
  const [timedOut, setTimedOut] = useState(false);
  const subscription = useQuery({
    ...subscriptionQueryOptions(),
    staleTime: 0,
    refetchInterval: (query) => (awaitingPayment && !timedOut && !live(query.state.data) ? POLL_INTERVAL_MS : false),
    retry: false,
  });
  const current = subscription.data;
  const landed = live(current);

  useEffect(() => {
    if (!awaitingPayment || landed) return;
    const timer = window.setTimeout(() => setTimedOut(true), POLL_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [awaitingPayment, landed]);

  // The same webhook opened the credit account: the dashboard must not show an earlier "no credits" answer.
  useEffect(() => {
    if (landed) void queryClient.invalidateQueries({ queryKey: creditsQueryKey });
  }, [landed, queryClient]);

  let content: ReactNode = null;
  if (live(current)) {
    const billing = billingSummary(current, awaitingPayment);
    content = (
      <>
        <p className="font-medium text-foreground" data-testid="checkout-plan">
          {planSummary(current)}
        </p>
        {billing && (
          <p className="mt-1 text-muted-foreground" data-testid="checkout-plan-billing">
            {billing}
          </p>
        )}
      </>
    );
  } else if (awaitingPayment && (timedOut || subscription.isError)) {
    content = (
      <p className="text-muted-foreground">
        Your payment went through; we are still confirming it with the payment provider. Your plan will appear on your
        dashboard in a minute or two.
      </p>
    );
  } else if (awaitingPayment) {
    content = (
      <p className="flex items-center justify-center gap-2 text-muted-foreground">
        <Spinner />
        Confirming your plan...
      </p>
    );
  }

  return (
    <div role="status" aria-live="polite" className="min-h-6 text-sm">
      {content}
    </div>
  );
}
