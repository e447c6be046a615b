import { useInfiniteQuery } from '@tanstack/react-query';
import { Plus, RotateCw, TicketPercent } from 'lucide-react';
import { useState } from 'react';
import type { Coupon } from '@contracts/coupons.ts';
import { PlanGate } from '@/components/plan-gate.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { LoadMore } from '@/components/ui/load-more.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { TableSkeleton } from '@/components/ui/skeleton.tsx';
import { couponsQueryOptions } from '../api/coupons-queries.ts';
import { CouponsTable } from '../components/coupons-table.tsx';
import { CreateCouponDialog } from '../components/create-coupon-dialog.tsx';
import { DeleteCouponDialog } from '../components/delete-coupon-dialog.tsx';
import { couponsMessages as m } from '../coupons-messages.ts';

/**
 * /dashboard/creator/coupons (Marketing): the creator's discount codes. 'Create coupon' opens the form; each row has
 * its Active switch and 'Delete' behind a confirmation. Newest first, a page at a time: 'Load more' for the next.
 */
export function CouponsScreen() {
  const coupons = useInfiniteQuery(couponsQueryOptions());
  const items = coupons.data?.pages.flatMap((page) => page.items) ?? [];
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Coupon>();

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader
        title={m.title}
        description={m.description}
        actions={
          // Without a plan: 'Choose a plan to create coupons' (issue 29); the coupons made stay listed.
          <PlanGate feature="sales" label={m.create} action="create coupons" variant="default">
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden="true" />
              {m.create}
            </Button>
          </PlanGate>
        }
      />
      {coupons.isPending ? (
        <TableSkeleton label={m.loading} />
      ) : coupons.isError ? (
        <div role="alert" className="flex flex-col items-center gap-3 rounded-xl border px-4 py-10 text-center">
          <p className="font-medium">{m.loadFailed}</p>
          <Button variant="outline" loading={coupons.isRefetching} onClick={() => void coupons.refetch()}>
            {!coupons.isRefetching && <RotateCw aria-hidden="true" />}
            {m.retry}
          </Button>
        </div>
      ) : items.length === 0 ? (
        <EmptyState icon={TicketPercent} title={m.empty.title}>
          {m.empty.description}
        </EmptyState>
      ) : (
        <Card className="max-sm:border-0 max-sm:bg-transparent max-sm:shadow-none">
          <CardContent className="grid gap-4 pt-6 max-sm:p-0">
            <CouponsTable coupons={items} onDelete={setDeleting} />
            <LoadMore pages={coupons} label={m.loadMore} />
          </CardContent>
        </Card>
      )}
      <CreateCouponDialog open={creating} onOpenChange={setCreating} />
      <DeleteCouponDialog coupon={deleting} onDone={() => setDeleting(undefined)} />
    </div>
  );
}
