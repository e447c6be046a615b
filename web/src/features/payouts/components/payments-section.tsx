import { useQuery } from '@tanstack/react-query';
import { CircleCheck, CreditCard, RotateCw } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { PayoutsResponse } from '@contracts/payouts.ts';
import { PlanGate } from '@/components/plan-gate.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { PAYOUTS_PARAM, payoutsQueryOptions, requirementLabels, useConnectPayouts } from '../api/payouts-queries.ts';

/** After Stripe's onboarding the account's new state arrives by webhook: the section asks again for a little while. */
const RETURN_POLL_MS = 2000;
const RETURN_POLL_FOR_MS = 30_000;

export const statusLabels: Record<PayoutsResponse['status'], string> = { none: 'Not connected', pending: 'Pending', enabled: 'Ready' };

/**
 * The profile's "Payments" section: the creator's own Stripe account, on which buyers pay them directly (the creator
 * keeps 100%). Not connected -> 'Connect Stripe'; Pending, with what Stripe still needs -> 'Continue onboarding';
 * Ready. Stripe sends the creator back with `?payouts=return` (the section then watches for the webhook's update) or,
 * for a used or expired onboarding link, `?payouts=refresh` (a new link is asked for at once).
 */
export function PaymentsSection() {
  const [params, setParams] = useSearchParams();
  const back = params.get(PAYOUTS_PARAM);
  const since = useRef(Date.now());
  const payouts = useQuery({
    ...payoutsQueryOptions(),
    refetchInterval: (query) =>
      back === 'return' && query.state.data?.status !== 'enabled' && Date.now() - since.current < RETURN_POLL_FOR_MS ? RETURN_POLL_MS : false,
  });
  const connect = useConnectPayouts();
  const refreshed = useRef(false);

  useEffect(() => {
    if (back !== 'refresh' || refreshed.current) return;
    refreshed.current = true;
    setParams((current) => {
      current.delete(PAYOUTS_PARAM);
      return current;
    }, { replace: true });
    connect.mutate();
  }, [back, connect, setParams]);

  return (
    <Card id="payments" role="region" aria-labelledby="payments-title" aria-busy={payouts.isPending}>
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle id="payments-title">Payments</CardTitle>
          {payouts.data && (
            <Badge data-testid="payouts-status" variant={payouts.data.status === 'enabled' ? 'default' : payouts.data.status === 'pending' ? 'secondary' : 'outline'}>
              {payouts.data.status === 'enabled' && <CircleCheck aria-hidden="true" />}
              {statusLabels[payouts.data.status]}
            </Badge>
          )}
        </div>
        <CardDescription>Sell your courses on your own Stripe account: buyers pay you directly and you keep 100% of every sale.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 text-sm">
        {payouts.isPending ? (
          <>
            <span className="sr-only">Loading your payment account...</span>
            <Skeleton className="h-4 w-72 max-w-full" />
            <Skeleton className="h-9 w-40" />
          </>
        ) : payouts.isError ? (
          <div role="alert" className="grid gap-3">
            <p>Your payment account could not be loaded. Check your connection and try again.</p>
            <Button variant="outline" className="w-fit" loading={payouts.isFetching} onClick={() => void payouts.refetch()}>
              {!payouts.isFetching && <RotateCw aria-hidden="true" />}
              Try again
            </Button>
          </div>
        ) : payouts.data.status === 'enabled' ? (
          <p>
            Your Stripe account can take payments.{' '}
            {payouts.data.payoutsEnabled ? 'Payouts to your bank are on.' : 'Stripe is still setting up payouts to your bank.'}
          </p>
        ) : (
          <>
            {payouts.data.status === 'none' ? (
              <p>Connect a Stripe account to put a price on your courses. Setting one up takes a few minutes on Stripe's own pages.</p>
            ) : (
              <div className="grid gap-2">
                <p>Stripe still needs a few details before your account can take payments{payouts.data.requirements.length > 0 ? ':' : '.'}</p>
                {payouts.data.requirements.length > 0 && (
                  <ul className="list-disc ps-5 text-muted-foreground" data-testid="payouts-requirements">
                    {requirementLabels(payouts.data.requirements).map((label) => (
                      <li key={label}>{label}</li>
                    ))}
                  </ul>
                )}
              </div>
            )}
            {/* Selling needs a plan (issue 29): without one, the way to a plan instead. */}
            <PlanGate feature="sales" label="Connect Stripe" action="connect Stripe" variant="default" className="w-fit">
              <Button className="w-fit" loading={connect.busy} onClick={() => connect.mutate()}>
                {!connect.busy && <CreditCard aria-hidden="true" />}
                {connect.busy ? 'Opening Stripe...' : payouts.data.status === 'none' ? 'Connect Stripe' : 'Continue onboarding'}
              </Button>
            </PlanGate>
          </>
        )}
      </CardContent>
    </Card>
  );
}
