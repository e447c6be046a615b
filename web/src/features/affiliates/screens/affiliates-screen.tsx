import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Handshake, Plus } from 'lucide-react';
import { useState } from 'react';
import type { Affiliate } from '@contracts/affiliates.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { LoadMore } from '@/components/ui/load-more.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { TableSkeleton } from '@/components/ui/skeleton.tsx';
import { affiliatesMessages as m } from '../affiliates-messages.ts';
import { affiliatesQueryOptions, planQueryOptions } from '../api/affiliates-queries.ts';
import { AddAffiliateDialog } from '../components/add-affiliate-dialog.tsx';
import { AffiliatesTable } from '../components/affiliates-table.tsx';
import { CommissionsDialog } from '../components/commissions-dialog.tsx';
import { PayOutDialog } from '../components/pay-out-dialog.tsx';
import { ProPlanCard } from '../components/pro-plan-card.tsx';

/**
 * /dashboard/creator/affiliates (Marketing): the people who sell the creator's courses for a commission. On Pro,
 * 'Add affiliate' opens the form; off Pro, a card says what Pro unlocks and opens the upgrade path (affiliates kept
 * from a Pro period stay listed). Each affiliate has its link to copy, its commissions and 'Pay out £X' behind a confirmation. Newest first,
 * a page at a time: 'Load more' for the next.
 */
export function AffiliatesScreen() {
  const affiliates = useInfiniteQuery(affiliatesQueryOptions());
  const items = affiliates.data?.pages.flatMap((page) => page.items) ?? [];
  const plan = useQuery(planQueryOptions());
  const [adding, setAdding] = useState(false);
  const [viewing, setViewing] = useState<Affiliate>();
  const [paying, setPaying] = useState<Affiliate>();
  // What the plan includes (issue 29's entitlements): Pro, or a past-due Pro until Stripe ends it.
  const onPro = plan.data?.features.includes('affiliates') === true;

  const retry = () => {
    if (affiliates.isError) void affiliates.refetch();
    if (plan.isError) void plan.refetch();
  };

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader
        title={m.title}
        description={m.description}
        actions={
          onPro && (
            <Button onClick={() => setAdding(true)}>
              <Plus aria-hidden="true" />
              {m.add}
            </Button>
          )
        }
      />
      {affiliates.isPending || plan.isPending ? (
        <TableSkeleton label={m.loading} />
      ) : affiliates.isError || plan.isError ? (
        <LoadFailed message={m.loadFailed} onRetry={retry} retrying={affiliates.isRefetching || plan.isRefetching} retryLabel={m.retry} />
      ) : (
        <>
          {!onPro && <ProPlanCard hasAffiliates={items.length > 0} />}
          {items.length > 0 ? (
            // Below 1280 px the table folds into cards of its own (affiliates-table.tsx): no card around them.
            <Card className="max-xl:border-0 max-xl:bg-transparent max-xl:shadow-none">
              <CardContent className="grid gap-4 pt-6 max-xl:p-0">
                <AffiliatesTable affiliates={items} onCommissions={setViewing} onPayOut={setPaying} />
                <LoadMore pages={affiliates} label={m.loadMore} />
              </CardContent>
            </Card>
          ) : (
            onPro && (
              <EmptyState icon={Handshake} title={m.empty.title}>
                {m.empty.description}
              </EmptyState>
            )
          )}
        </>
      )}
      <AddAffiliateDialog open={adding} onOpenChange={setAdding} />
      <CommissionsDialog affiliate={viewing} onDone={() => setViewing(undefined)} />
      <PayOutDialog affiliate={paying} onDone={() => setPaying(undefined)} />
    </div>
  );
}
