import { Copy, Pencil, Trash2, Users } from 'lucide-react';
import { useRef } from 'react';
import type { Membership } from '@contracts/memberships.ts';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Switch } from '@/components/ui/switch.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { cn } from '@/lib/utils.ts';
import { useUpdateMembership } from '../api/memberships-queries.ts';
import { coursesLabel, membershipLinkOf, priceLabel } from '../membership-format.ts';
import { membershipsMessages as m } from '../memberships-messages.ts';

/* Below 640 px the table folds into cards, as the Bundles list does (each cell under its column's data-label). */
const folded = {
  table: 'max-sm:block',
  header: 'max-sm:sr-only',
  body: 'max-sm:grid max-sm:gap-3',
  row: 'max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-4 max-sm:gap-y-3 max-sm:rounded-lg max-sm:border! max-sm:bg-card max-sm:p-4 max-sm:hover:bg-card',
  cell: 'max-sm:block max-sm:min-w-0 max-sm:p-0 max-sm:before:mb-0.5 max-sm:before:block max-sm:before:text-xs max-sm:before:text-muted-foreground max-sm:before:content-[attr(data-label)]',
  unlabelled: 'max-sm:before:hidden',
};

interface Actions {
  onMembers: (membership: Membership) => void;
  onEdit: (membership: Membership) => void;
  onDelete: (membership: Membership) => void;
}

/** The creator's memberships: title and courses, price, the On sale switch, the public link, 'Members', 'Edit' and 'Delete'. */
export function MembershipsTable({ memberships, readOnly, ...actions }: { memberships: Membership[]; readOnly: boolean } & Actions) {
  return (
    <Table label="Memberships" className={folded.table}>
      <TableHeader className={folded.header}>
        <TableRow>
          <TableHead>Membership</TableHead>
          <TableHead>Price</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Link</TableHead>
          <TableHead>
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody className={folded.body}>
        {memberships.map((membership) => (
          <MembershipRow key={membership.id} membership={membership} readOnly={readOnly} {...actions} />
        ))}
      </TableBody>
    </Table>
  );
}

function MembershipRow({ membership, readOnly, onMembers, onEdit, onDelete }: { membership: Membership; readOnly: boolean } & Actions) {
  const update = useUpdateMembership();
  // The switch moves at once; the server's answer confirms it, or a refusal puts it back.
  const active = update.isPending ? (update.variables.body.active ?? membership.active) : membership.active;
  const switchTo = (next: boolean) =>
    update.mutate(
      { id: membership.id, body: { active: next } },
      {
        onSuccess: (changed) =>
          toast.success(changed.active ? m.toggle.on : m.toggle.off, {
            description: changed.active
              ? `${changed.title} can be subscribed to on its page.`
              : `${changed.title}'s page no longer takes new members. Members keep access until their subscriptions end.`,
          }),
        onError: (error) => toastError(error, m.toggle.failed),
      },
    );

  return (
    <TableRow className={folded.row}>
      <TableCell className={cn(folded.cell, folded.unlabelled, 'max-w-72 min-w-44 max-sm:order-1 max-sm:max-w-none max-sm:min-w-0 max-sm:self-center')}>
        <span className="block font-semibold [overflow-wrap:anywhere]">{membership.title}</span>
        <span className="block text-xs text-muted-foreground">{coursesLabel(membership.courseIds)}</span>
      </TableCell>
      <TableCell data-label="Price" className={cn(folded.cell, 'whitespace-nowrap tabular-nums max-sm:order-3')}>
        {priceLabel(membership.priceAmount, membership.interval)}
      </TableCell>
      <TableCell className={cn(folded.cell, folded.unlabelled, 'max-sm:order-2 max-sm:justify-self-end')}>
        <div className="flex items-center gap-2">
          <Switch checked={active} disabled={update.isPending || readOnly} onCheckedChange={switchTo} aria-label={`${membership.title} on sale`} />
          <span className={cn('text-sm whitespace-nowrap', !active && 'text-muted-foreground')}>{active ? 'On sale' : 'Off sale'}</span>
        </div>
      </TableCell>
      <TableCell data-label="Link" className={cn(folded.cell, 'min-w-48 max-sm:order-5 max-sm:col-span-2 max-sm:min-w-0')}>
        <MembershipLink membership={membership} />
      </TableCell>
      <TableCell className={cn(folded.cell, folded.unlabelled, 'text-right max-sm:order-6 max-sm:col-span-2')}>
        <div className="flex justify-end gap-2 max-sm:grid max-sm:grid-cols-3">
          <Button variant="outline" size="sm" className="max-sm:h-10" aria-label={`Members of ${membership.title}`} onClick={() => onMembers(membership)}>
            <Users aria-hidden="true" />
            {m.members.open}
          </Button>
          {!readOnly && (
            <>
              <Button variant="outline" size="sm" className="max-sm:h-10" aria-label={`Edit ${membership.title}`} title="Edit" onClick={() => onEdit(membership)}>
                <Pencil aria-hidden="true" />
                <span className="sm:sr-only">Edit</span>
              </Button>
              <Button variant="outline" size="sm" className="max-sm:h-10" aria-label={`Delete ${membership.title}`} title="Delete" onClick={() => onDelete(membership)}>
                <Trash2 aria-hidden="true" />
                <span className="sm:sr-only">Delete</span>
              </Button>
            </>
          )}
        </div>
      </TableCell>
    </TableRow>
  );
}

/** The membership's public page in a read-only field (to copy by hand) and 'Copy' (as a bundle's link). */
function MembershipLink({ membership }: { membership: Pick<Membership, 'id' | 'title'> }) {
  const field = useRef<HTMLInputElement>(null);
  const link = membershipLinkOf(membership.id);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast.success(m.link.copied, { description: link });
    } catch {
      field.current?.focus();
      field.current?.select();
      toast.error('Error', { description: m.link.copyFailed });
    }
  };
  return (
    <div className="flex min-w-0 items-center gap-2">
      <Input
        ref={field}
        readOnly
        value={link}
        aria-label={`Link of ${membership.title}`}
        onFocus={(event) => event.target.select()}
        className="h-10 min-w-0 flex-1 font-mono sm:h-8 sm:text-xs"
      />
      <Button variant="outline" size="sm" className="max-sm:h-10" aria-label={`Copy link of ${membership.title}`} onClick={() => void copy()}>
        <Copy aria-hidden="true" />
        Copy
      </Button>
    </div>
  );
}
