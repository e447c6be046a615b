import { useInfiniteQuery } from '@tanstack/react-query';
import { Fragment, useState } from 'react';
import { saleTitle, type Sale, type SaleStatus } from '@contracts/sales.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { TableSkeleton } from '@/components/ui/skeleton.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { formatDay } from '@/lib/format-date.ts';
import { formatPounds } from '@/lib/format-money.ts';
import { cn } from '@/lib/utils.ts';
import { salesQueryOptions } from '../api/sales-queries.ts';
import { salesMessages as m } from '../sales-messages.ts';
import { NoSalesYet } from './no-sales-yet.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { LoadMore } from '@/components/ui/load-more.tsx';
import { RefundDialog } from './refund-dialog.tsx';

const statusNames: Record<SaleStatus, string> = { paid: 'Paid', refunded: 'Refunded', disputed: 'Disputed' };

/*
 * Below 640 px the table folds into stacked cards: each row a bordered card of three columns, each cell under its
 * column's name (the cell's data-label, shown by CSS; the header row stays for screen readers). The course leads,
 * then the buyer, date and status, amount, discount and coupon, and 'Refund' across the card's width.
 */
const folded = {
  table: 'max-sm:block',
  header: 'max-sm:sr-only',
  body: 'max-sm:grid max-sm:gap-3',
  row: 'max-sm:grid max-sm:grid-cols-3 max-sm:gap-x-4 max-sm:gap-y-3 max-sm:rounded-lg max-sm:border! max-sm:p-4 max-sm:hover:bg-transparent',
  cell: 'max-sm:block max-sm:min-w-0 max-sm:p-0 max-sm:before:mb-0.5 max-sm:before:block max-sm:before:text-xs max-sm:before:text-muted-foreground max-sm:before:content-[attr(data-label)]',
};

/**
 * The Sales tab: every sale, newest first (date, buyer, course, amount paid, discount, coupon, status), 'Load more' for
 * the next page, and 'Refund' on a paid sale, behind a confirmation.
 */
export function SalesList() {
  const sales = useInfiniteQuery(salesQueryOptions());
  const [refunding, setRefunding] = useState<Sale>();
  const rows = sales.data?.pages.flatMap((page) => page.items) ?? [];

  if (sales.isPending) return <TableSkeleton label={m.loadingSales} rows={5} />;
  if (sales.isError) return <LoadFailed message={m.salesFailed} onRetry={() => void sales.refetch()} retrying={sales.isRefetching} />;
  if (rows.length === 0) {
    return <NoSalesYet />;
  }

  return (
    <Card className="max-sm:border-0 max-sm:bg-transparent max-sm:shadow-none">
      <CardContent className="grid gap-4 pt-6 max-sm:p-0">
        <Table label="Sales" className={folded.table}>
          <TableHeader className={folded.header}>
            <TableRow>
              <TableHead>Date</TableHead>
              <TableHead>Buyer</TableHead>
              <TableHead>Course</TableHead>
              <TableHead className="text-right">Amount</TableHead>
              <TableHead className="text-right">Discount</TableHead>
              <TableHead>Coupon</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody className={folded.body}>
            {rows.map((sale) => (
              <TableRow key={sale.id} className={folded.row}>
                <TableCell data-label="Date" className={cn(folded.cell, 'whitespace-nowrap max-sm:order-3 max-sm:col-span-2')}>
                  {formatDay(sale.createdAt)}
                </TableCell>
                <TableCell data-label="Buyer" className={cn(folded.cell, 'break-words sm:min-w-48 max-sm:order-2 max-sm:col-span-3')}>
                  <BreakableEmail email={sale.buyerEmail} />
                </TableCell>
                <TableCell className={cn(folded.cell, 'min-w-44 max-sm:order-1 max-sm:col-span-3 max-sm:before:hidden')}>
                  <span className="font-medium break-words max-sm:text-base max-sm:font-semibold">{saleTitle(sale)}</span>
                  {sale.seats !== null && <span className="block text-xs text-muted-foreground">Team licence · {sale.seats} seats</span>}
                </TableCell>
                <TableCell data-label="Amount" className={cn(folded.cell, 'whitespace-nowrap tabular-nums max-sm:order-5 sm:text-right')}>
                  {formatPounds(sale.amount)}
                </TableCell>
                <TableCell data-label="Discount" className={cn(folded.cell, 'whitespace-nowrap tabular-nums max-sm:order-6 sm:text-right')}>
                  {sale.discount > 0 ? formatPounds(sale.discount) : <None />}
                </TableCell>
                <TableCell data-label="Coupon" className={cn(folded.cell, 'max-sm:order-7')}>
                  {sale.couponCode ? <span className="font-mono text-xs whitespace-nowrap max-sm:break-all max-sm:whitespace-normal">{sale.couponCode}</span> : <None />}
                </TableCell>
                <TableCell data-label="Status" className={cn(folded.cell, 'max-sm:order-4')}>
                  <StatusBadge status={sale.status} />
                </TableCell>
                <TableCell className={cn(folded.cell, 'text-right max-sm:order-8 max-sm:col-span-3 max-sm:empty:hidden max-sm:before:hidden')}>
                  {sale.status === 'paid' && (
                    <Button
                      variant="outline"
                      size="sm"
                      className="max-sm:w-full"
                      aria-label={`Refund ${sale.buyerEmail}'s purchase of ${saleTitle(sale)}`}
                      onClick={() => setRefunding(sale)}
                    >
                      Refund
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        <LoadMore pages={sales} />
      </CardContent>
      <RefundDialog sale={refunding} onDone={() => setRefunding(undefined)} />
    </Card>
  );
}

function StatusBadge({ status }: { status: SaleStatus }) {
  return (
    <Badge
      variant={status === 'paid' ? 'secondary' : 'outline'}
      className={cn(status === 'disputed' && 'border-destructive/50 text-destructive')}
    >
      {statusNames[status]}
    </Badge>
  );
}

/** An address that may wrap after its dots and before its '@' rather than anywhere (a long one stays readable). */
function BreakableEmail({ email }: { email: string }) {
  const parts = email.split(/(?<=\.)|(?=@)/);
  return parts.map((part, index) => (
    <Fragment key={index}>
      {index > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

/** An empty cell: a dash to the eye, 'None' to a screen reader. */
function None() {
  return (
    <>
      <span aria-hidden="true" className="text-muted-foreground">
        —
      </span>
      <span className="sr-only">None</span>
    </>
  );
}
