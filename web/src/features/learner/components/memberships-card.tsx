import { useQuery } from '@tanstack/react-query';
import { ExternalLink } from 'lucide-react';
import { redirectResponse } from '@contracts/billing.ts';
import type { LearnerMembershipList } from '@contracts/memberships.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { toastError } from '@/components/ui/toaster.tsx';
import { apiClient } from '@/lib/api-client.ts';
import { formatDay } from '@/lib/format-date.ts';
import { formatPounds } from '@/lib/format-money.ts';
import { paths, urlOf } from '@/lib/paths.ts';
import { useLeaveFor } from '@/lib/use-leave-for.ts';
import { learnerMembershipsQueryOptions } from '../api/learning-queries.ts';

type Held = LearnerMembershipList['items'][number];

/** '£12 a month · Renews on 20 Dec 2026', '... · Ends on ...' once cancelled, 'Payment overdue' while Stripe retries. */
export const membershipLine = (held: Held): string => {
  const price = held.priceAmount !== null && held.interval !== null ? `${formatPounds(held.priceAmount)} a ${held.interval}` : undefined;
  const day = held.currentPeriodEnd ? formatDay(held.currentPeriodEnd) : undefined;
  const when =
    held.status === 'past_due'
      ? 'Payment overdue: update your card to keep access'
      : day
        ? held.cancelAtPeriodEnd
          ? `Ends on ${day}`
          : `Renews on ${day}`
        : undefined;
  return [price, when].filter(Boolean).join(' · ');
};

/**
 * 'Your memberships' on My Learning (issue 34): each membership the learner holds, its price and when it renews or
 * ends, and 'Manage membership', which opens Stripe's billing portal on the creator's account (cancel, change the
 * card, invoices) and comes back here. None held: no section at all.
 */
export function MembershipsCard() {
  const memberships = useQuery(learnerMembershipsQueryOptions());
  const items = memberships.data?.items ?? [];
  if (memberships.isPending || items.length === 0) {
    if (!memberships.isError) return null;
    return (
      <p role="alert" className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
        Your memberships could not be loaded.
        <Button variant="link" className="h-auto p-0" onClick={() => void memberships.refetch()}>
          Load memberships again
        </Button>
      </p>
    );
  }
  return (
    <Card role="region" aria-labelledby="memberships-title">
      <CardHeader>
        <CardTitle id="memberships-title">Your memberships</CardTitle>
        <CardDescription>Cancel, change your card or see your invoices in Stripe&apos;s billing portal.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y">
          {items.map((held) => (
            <MembershipRow key={held.membershipId} held={held} />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function MembershipRow({ held }: { held: Held }) {
  const portal = useLeaveFor({
    request: () =>
      apiClient.post(`/api/learner/memberships/${encodeURIComponent(held.membershipId)}/portal`, redirectResponse, {
        body: { returnUrl: urlOf(paths.learner.dashboard) },
      }),
    onError: (error) => toastError(error, 'The billing portal could not be opened'),
  });
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-4 first:pt-0 last:pb-0">
      <div className="grid min-w-0 gap-0.5">
        <p className="font-medium [overflow-wrap:anywhere]">{held.title}</p>
        <p className="text-sm text-muted-foreground">{membershipLine(held)}</p>
      </div>
      <Button size="sm" variant="outline" loading={portal.busy} aria-label={`Manage membership: ${held.title}`} onClick={() => portal.mutate()}>
        {!portal.busy && <ExternalLink aria-hidden="true" />}
        {portal.busy ? 'Opening...' : 'Manage membership'}
      </Button>
    </li>
  );
}
