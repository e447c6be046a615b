import { Banknote, ReceiptText } from 'lucide-react';
import type { Affiliate } from '@contracts/affiliates.ts';
import { Button } from '@/components/ui/button.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { formatPounds } from '@/lib/format-money.ts';
import { cn } from '@/lib/utils.ts';
import { AffiliateLink } from './affiliate-link.tsx';

const COLUMNS = 8;

/*
 * Each affiliate is a group of two rows (a tbody of its own): its figures, then its link and actions across the
 * table's width. Eight columns of figures need about 750 px, more than the page has beside the sidebar below 1280 px,
 * so below that the table folds into cards, as Coupons and Sales do below 640 px: each group a bordered card, the name on top,
 * each figure under its column's name (the cell's data-label, shown by CSS; the header row stays for screen
 * readers), then the link and the buttons across the card's width. Every track is minmax(0, 1fr) and every cell may
 * shrink, so a long name, email or link wraps or scrolls inside its field, never the page.
 */
const folded = {
  table: 'max-xl:grid max-xl:grid-cols-1 max-xl:gap-3',
  header: 'max-xl:sr-only',
  group: 'border-b last:border-b-0 max-xl:block max-xl:min-w-0 max-xl:rounded-lg max-xl:border max-xl:bg-card max-xl:p-4 max-xl:last:border-b',
  figures: 'border-0 hover:bg-transparent max-xl:grid max-xl:grid-cols-3 max-xl:gap-x-4 max-xl:gap-y-3 sm:max-xl:grid-cols-4',
  tools: 'hover:bg-transparent max-xl:mt-4 max-xl:block max-xl:border-t! max-xl:pt-4',
  cell: 'max-xl:block max-xl:min-w-0 max-xl:p-0 max-xl:before:mb-0.5 max-xl:before:block max-xl:before:text-xs max-xl:before:text-muted-foreground max-xl:before:content-[attr(data-label)]',
  unlabelled: 'max-xl:before:hidden',
};

const count = (n: number): string => n.toLocaleString('en-GB');

/**
 * The creator's affiliates: name and email, code, commission, clicks, sales, and what they earned (pending,
 * approved, paid; a clawback under paid), then the link to share, 'Commissions' and 'Pay out £X' (approved only).
 */
export function AffiliatesTable({
  affiliates,
  onCommissions,
  onPayOut,
}: {
  affiliates: Affiliate[];
  onCommissions: (affiliate: Affiliate) => void;
  onPayOut: (affiliate: Affiliate) => void;
}) {
  return (
    <Table label="Affiliates" className={folded.table}>
      <TableHeader className={folded.header}>
        <TableRow>
          <TableHead>Affiliate</TableHead>
          <TableHead>Code</TableHead>
          <TableHead className="text-right">Commission</TableHead>
          <TableHead className="text-right">Clicks</TableHead>
          <TableHead className="text-right">Sales</TableHead>
          <TableHead className="text-right">Pending</TableHead>
          <TableHead className="text-right">Approved</TableHead>
          <TableHead className="text-right">Paid</TableHead>
        </TableRow>
      </TableHeader>
      {affiliates.map((affiliate) => (
        <AffiliateRows key={affiliate.id} affiliate={affiliate} onCommissions={() => onCommissions(affiliate)} onPayOut={() => onPayOut(affiliate)} />
      ))}
    </Table>
  );
}

function AffiliateRows({ affiliate, onCommissions, onPayOut }: { affiliate: Affiliate; onCommissions: () => void; onPayOut: () => void }) {
  const figure = cn(folded.cell, 'whitespace-nowrap tabular-nums xl:text-right');
  return (
    <TableBody className={folded.group}>
      <TableRow className={folded.figures}>
        <TableCell className={cn(folded.cell, folded.unlabelled, 'min-w-44 max-xl:col-span-2 sm:max-xl:col-span-3')}>
          <span className="block font-medium [overflow-wrap:anywhere] max-xl:text-base">{affiliate.name}</span>
          <span className="block text-xs text-muted-foreground [overflow-wrap:anywhere]">{affiliate.email}</span>
        </TableCell>
        <TableCell data-label="Code" className={cn(folded.cell, 'max-xl:text-right')}>
          <span className="font-mono text-xs font-semibold whitespace-nowrap">{affiliate.code}</span>
        </TableCell>
        <TableCell data-label="Commission" className={figure}>
          {affiliate.commissionPercent}%
        </TableCell>
        <TableCell data-label="Clicks" className={figure}>
          {count(affiliate.clicks)}
        </TableCell>
        <TableCell data-label="Sales" className={figure}>
          {count(affiliate.sales)}
        </TableCell>
        <TableCell data-label="Pending" className={figure}>
          {formatPounds(affiliate.pending)}
        </TableCell>
        <TableCell data-label="Approved" className={figure}>
          <span className={cn(affiliate.approved > 0 && 'font-semibold')}>{formatPounds(affiliate.approved)}</span>
        </TableCell>
        <TableCell data-label="Paid" className={figure}>
          {formatPounds(affiliate.paid)}
          {affiliate.clawedBack > 0 && <span className="block text-xs font-medium text-destructive">Owes back {formatPounds(affiliate.clawedBack)}</span>}
        </TableCell>
      </TableRow>
      <TableRow className={folded.tools}>
        <TableCell colSpan={COLUMNS} className="pt-0 max-xl:block max-xl:p-0">
          <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
            <AffiliateLink affiliate={affiliate} className="flex-1 basis-[34rem]" />
            <div className="flex min-w-0 flex-wrap gap-2 max-xl:w-full">
              <Button variant="outline" size="sm" className="max-xl:h-10 max-xl:flex-auto" aria-label={`Commissions of ${affiliate.name}`} onClick={onCommissions}>
                <ReceiptText aria-hidden="true" />
                Commissions
              </Button>
              {/* Paying out needs no plan (issue 29): approved commissions are owed, whatever the plan now. */}
              <Button size="sm" className="max-xl:h-10 max-xl:flex-auto" disabled={affiliate.approved <= 0} aria-label={`Pay out ${affiliate.name}`} onClick={onPayOut}>
                <Banknote aria-hidden="true" />
                {affiliate.approved > 0 ? `Pay out ${formatPounds(affiliate.approved)}` : 'Pay out'}
              </Button>
            </div>
          </div>
        </TableCell>
      </TableRow>
    </TableBody>
  );
}
