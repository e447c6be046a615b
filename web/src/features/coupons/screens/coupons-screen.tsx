import { useInfiniteQuery } from '@tanstack/react-query';
import { TicketPercent } from 'lucide-react';
import { useState } from 'react';
import type { Coupon } from '@contracts/coupons.ts';
import { SalesListScreen } from '@/components/sales-list-screen.tsx';
import { LoadMore } from '@/components/ui/load-more.tsx';
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
    <SalesListScreen
      messages={m}
      createAction="create coupons"
      onCreate={() => setCreating(true)}
      list={coupons}
      empty={items.length === 0}
      emptyIcon={TicketPercent}
      dialogs={
        <>
          <CreateCouponDialog open={creating} onOpenChange={setCreating} />
          <DeleteCouponDialog coupon={deleting} onDone={() => setDeleting(undefined)} />
        </>
      }
    >
      <CouponsTable coupons={items} onDelete={setDeleting} />
      <LoadMore pages={coupons} label={m.loadMore} />
    </SalesListScreen>
  );
}
