import { useInfiniteQuery } from '@tanstack/react-query';
import type { Affiliate, Commission, CommissionStatus } from '@contracts/affiliates.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { LoadMore } from '@/components/ui/load-more.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { formatDay } from '@/lib/format-date.ts';
import { formatPounds } from '@/lib/format-money.ts';
import { cn } from '@/lib/utils.ts';
import { affiliatesMessages as m } from '../affiliates-messages.ts';
import { commissionsQueryOptions } from '../api/affiliates-queries.ts';

const statusNames: Record<CommissionStatus, string> = { pending: 'Pending', approved: 'Approved', paid: 'Paid', void: 'Void' };
const statusStyles: Record<CommissionStatus, string> = {
  pending: 'border-transparent bg-amber-100 text-amber-950',
  approved: 'border-transparent bg-emerald-100 text-emerald-900',
  paid: 'border-transparent bg-sky-100 text-sky-900',
  void: 'border-transparent bg-muted text-muted-foreground',
};

/* Below 640 px the table folds into cards, as the affiliates table does: the course on top, then each cell under its column's name. */
const folded = {
  table: 'max-sm:block',
  header: 'max-sm:sr-only',
  body: 'max-sm:grid max-sm:gap-3',
  row: 'max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-4 max-sm:gap-y-3 max-sm:rounded-lg max-sm:border! max-sm:p-4 max-sm:hover:bg-transparent',
  cell: 'max-sm:block max-sm:min-w-0 max-sm:p-0 max-sm:before:mb-0.5 max-sm:before:block max-sm:before:text-xs max-sm:before:text-muted-foreground max-sm:before:content-[attr(data-label)]',
};

/** One affiliate's commissions, newest first, 'Load more' for the next page: course, order, commission, status (and clawback), the day its hold ends. */
export function CommissionsDialog({ affiliate, onDone }: { affiliate: Affiliate | undefined; onDone: () => void }) {
  return (
    <Dialog open={affiliate !== undefined} onOpenChange={(open) => !open && onDone()}>
      <DialogContent fullScreenOnPhone className="sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>{affiliate ? m.commissions.title(affiliate.name) : ''}</DialogTitle>
          <DialogDescription>
            {affiliate
              ? `${affiliate.commissionPercent}% of each sale. A commission is pending for ${affiliate.holdDays === 1 ? '1 day' : `${affiliate.holdDays} days`}, while a refund can still void it, then approved until you pay it out.`
              : ''}
          </DialogDescription>
        </DialogHeader>
        {affiliate && <CommissionsOf affiliate={affiliate} />}
      </DialogContent>
    </Dialog>
  );
}

function CommissionsOf({ affiliate }: { affiliate: Affiliate }) {
  const commissions = useInfiniteQuery(commissionsQueryOptions(affiliate.id));
  if (commissions.isPending) {
    return (
      <div role="status" className="grid gap-2">
        <span className="sr-only">{m.commissions.loading}</span>
        {[0, 1, 2].map((n) => (
          <Skeleton key={n} className="h-9 w-full" />
        ))}
      </div>
    );
  }
  if (commissions.isError) {
    return <LoadFailed message={m.commissions.loadFailed} onRetry={() => void commissions.refetch()} retrying={commissions.isRefetching} />;
  }
  const items = commissions.data.pages.flatMap((page) => page.items);
  if (items.length === 0) {
    return <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">{m.commissions.empty(affiliate.name)}</p>;
  }
  return (
    <div className="grid gap-3">
      <Table label={m.commissions.title(affiliate.name)} className={folded.table}>
        <TableHeader className={folded.header}>
          <TableRow>
            <TableHead>Course</TableHead>
            <TableHead className="text-right">Order</TableHead>
            <TableHead className="text-right">Commission</TableHead>
            <TableHead>Status</TableHead>
            <TableHead>Hold ends</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody className={folded.body}>
          {items.map((commission) => (
            <CommissionRow key={commission.orderId} commission={commission} />
          ))}
        </TableBody>
      </Table>
      <LoadMore pages={commissions} />
      {items.some((commission) => commission.clawback) && <p className="text-xs text-muted-foreground">{m.commissions.clawbackNote}</p>}
    </div>
  );
}

function CommissionRow({ commission }: { commission: Commission }) {
  return (
    <TableRow className={folded.row}>
      <TableCell className={cn(folded.cell, 'max-sm:col-span-2 max-sm:before:hidden')}>
        <span className="font-medium [overflow-wrap:anywhere]">{commission.courseTitle}</span>
        <span className="block text-xs text-muted-foreground">Sold {formatDay(commission.createdAt)}</span>
      </TableCell>
      <TableCell data-label="Order" className={cn(folded.cell, 'whitespace-nowrap tabular-nums sm:text-right')}>
        {formatPounds(commission.orderAmount)}
      </TableCell>
      <TableCell data-label="Commission" className={cn(folded.cell, 'whitespace-nowrap tabular-nums sm:text-right', commission.status === 'void' && 'text-muted-foreground line-through')}>
        {formatPounds(commission.amount)}
      </TableCell>
      <TableCell data-label="Status" className={folded.cell}>
        <span className="flex flex-wrap gap-1">
          <Badge className={statusStyles[commission.status]}>{statusNames[commission.status]}</Badge>
          {commission.clawback && (
            <Badge variant="outline" className="border-destructive/50 text-destructive">
              Clawback
            </Badge>
          )}
        </span>
      </TableCell>
      <TableCell data-label="Hold ends" className={cn(folded.cell, 'whitespace-nowrap')}>
        {formatDay(commission.approveAt)}
        {commission.paidAt && <span className="block text-xs text-muted-foreground">Paid {formatDay(commission.paidAt)}</span>}
      </TableCell>
    </TableRow>
  );
}
