import { Pencil, Trash2 } from 'lucide-react';
import type { Bundle } from '@contracts/bundles.ts';
import { Button } from '@/components/ui/button.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { useEntitlements } from '@/lib/entitlements.ts';
import { formatPounds } from '@/lib/format-money.ts';
import { cn } from '@/lib/utils.ts';
import { useUpdateBundle } from '../api/bundles-queries.ts';
import { savingLabel } from '../bundle-format.ts';
import { bundlesMessages as m } from '../bundles-messages.ts';
import { BundleLink } from './bundle-link.tsx';

/*
 * Below 640 px the table folds into cards (as the Coupons list does): each row a bordered card, the title and its
 * switch on top, then each cell under its column's name (the cell's data-label, shown by CSS; the header row stays
 * for screen readers), and 'Edit' and 'Delete' across the card's width.
 */
const folded = {
  table: 'max-sm:block',
  header: 'max-sm:sr-only',
  body: 'max-sm:grid max-sm:gap-3',
  row: 'max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-4 max-sm:gap-y-3 max-sm:rounded-lg max-sm:border! max-sm:bg-card max-sm:p-4 max-sm:hover:bg-card',
  cell: 'max-sm:block max-sm:min-w-0 max-sm:p-0 max-sm:before:mb-0.5 max-sm:before:block max-sm:before:text-xs max-sm:before:text-muted-foreground max-sm:before:content-[attr(data-label)]',
  unlabelled: 'max-sm:before:hidden',
};

/** The creator's bundles: title and courses, price, saving, the On sale switch, the public link, 'Edit' and 'Delete'. */
export function BundlesTable({ bundles, onEdit, onDelete }: { bundles: Bundle[]; onEdit: (bundle: Bundle) => void; onDelete: (bundle: Bundle) => void }) {
  return (
    <Table label="Bundles" className={folded.table}>
      <TableHeader className={folded.header}>
        <TableRow>
          <TableHead>Bundle</TableHead>
          <TableHead className="text-right">Price</TableHead>
          <TableHead>Saving</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Link</TableHead>
          <TableHead>
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody className={folded.body}>
        {bundles.map((bundle) => (
          <BundleRow key={bundle.id} bundle={bundle} onEdit={() => onEdit(bundle)} onDelete={() => onDelete(bundle)} />
        ))}
      </TableBody>
    </Table>
  );
}

function BundleRow({ bundle, onEdit, onDelete }: { bundle: Bundle; onEdit: () => void; onDelete: () => void }) {
  const update = useUpdateBundle();
  // Without a plan (issue 29) the bundles stay listed, read-only: changing them needs a plan that sells.
  const readOnly = useEntitlements().locked('sales');
  // The switch moves at once; the server's answer confirms it, or a refusal puts it back.
  const active = update.isPending ? (update.variables.body.active ?? bundle.active) : bundle.active;
  const switchTo = (next: boolean) =>
    update.mutate(
      { id: bundle.id, body: { active: next } },
      {
        onSuccess: (changed) =>
          toast.success(changed.active ? m.toggle.on : m.toggle.off, {
            description: changed.active ? `${changed.title} can be bought on its page.` : `${changed.title}'s page no longer sells it. Buyers keep their courses.`,
          }),
        onError: (error) => toastError(error, m.toggle.failed),
      },
    );

  return (
    <TableRow className={folded.row}>
      <TableCell className={cn(folded.cell, folded.unlabelled, 'max-w-72 min-w-44 max-sm:order-1 max-sm:max-w-none max-sm:min-w-0 max-sm:self-center')}>
        <span className="block font-semibold [overflow-wrap:anywhere]">{bundle.title}</span>
        <span className="block text-xs whitespace-normal text-muted-foreground [overflow-wrap:anywhere]">{bundle.courses.map((c) => c.title).join(', ')}</span>
      </TableCell>
      <TableCell data-label="Price" className={cn(folded.cell, 'whitespace-nowrap tabular-nums max-sm:order-3 sm:text-right')}>
        {formatPounds(bundle.priceAmount)}
        <span className="block text-xs text-muted-foreground">{formatPounds(bundle.separateAmount)} separately</span>
      </TableCell>
      <TableCell data-label="Saving" className={cn(folded.cell, 'whitespace-nowrap max-sm:order-4', bundle.savingAmount === 0 && 'text-muted-foreground')}>
        {savingLabel(bundle)}
      </TableCell>
      <TableCell className={cn(folded.cell, folded.unlabelled, 'max-sm:order-2 max-sm:justify-self-end')}>
        <div className="flex items-center gap-2">
          <Switch checked={active} disabled={update.isPending || readOnly} onCheckedChange={switchTo} aria-label={`${bundle.title} on sale`} />
          <span className={cn('text-sm whitespace-nowrap', !active && 'text-muted-foreground')}>{active ? 'On sale' : 'Off sale'}</span>
        </div>
      </TableCell>
      <TableCell data-label="Link" className={cn(folded.cell, 'min-w-48 max-sm:order-5 max-sm:col-span-2 max-sm:min-w-0')}>
        <BundleLink bundle={bundle} />
      </TableCell>
      <TableCell className={cn(folded.cell, folded.unlabelled, 'text-right max-sm:order-6 max-sm:col-span-2')}>
        {!readOnly && (
          // Icons beside the table's other columns (their names in the tooltip and to screen readers); words on a phone's card.
          <div className="flex justify-end gap-2 max-sm:grid max-sm:grid-cols-2">
            <Button variant="outline" size="sm" className="max-sm:h-10" aria-label={`Edit ${bundle.title}`} title="Edit" onClick={onEdit}>
              <Pencil aria-hidden="true" />
              <span className="sm:sr-only">Edit</span>
            </Button>
            <Button variant="outline" size="sm" className="max-sm:h-10" aria-label={`Delete ${bundle.title}`} title="Delete" onClick={onDelete}>
              <Trash2 aria-hidden="true" />
              <span className="sm:sr-only">Delete</span>
            </Button>
          </div>
        )}
      </TableCell>
    </TableRow>
  );
}
