import { useInfiniteQuery } from '@tanstack/react-query';
import type { Membership } from '@contracts/memberships.ts';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog.tsx';
import { LoadFailedInline } from '@/components/ui/load-failed.tsx';
import { LoadMore } from '@/components/ui/load-more.tsx';
import { TableSkeleton } from '@/components/ui/skeleton.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { formatDay } from '@/lib/format-date.ts';
import { formatPounds } from '@/lib/format-money.ts';
import { membersQueryOptions } from '../api/memberships-queries.ts';
import { memberStatusLabel, priceLabel } from '../membership-format.ts';
import { membershipsMessages as m } from '../memberships-messages.ts';

/**
 * Below 640 px each member folds into a block (email, then status, then the day) rather than three squeezed columns.
 *
 * 'Members' of a membership: its monthly recurring revenue, paying members and churn (ended in the last 30 days), the
 * server's figures over every subscription, then one row a subscription (email, status, the day it renews or ends), a
 * page at a time.
 */
export function MembersDialog({ membership, onClose }: { membership: Membership | undefined; onClose: () => void }) {
  return (
    <Dialog open={membership !== undefined} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-2xl">
        {membership && <MembersBody membership={membership} />}
      </DialogContent>
    </Dialog>
  );
}

function MembersBody({ membership }: { membership: Membership }) {
  const members = useInfiniteQuery(membersQueryOptions(membership.id));
  const items = members.data?.pages.flatMap((page) => page.items) ?? [];
  const figures = members.data?.pages[0]?.figures ?? { paying: 0, mrrAmount: 0, endedLast30Days: 0 };
  return (
    <>
      <DialogHeader>
        <DialogTitle>{m.members.title(membership.title)}</DialogTitle>
        <DialogDescription>{priceLabel(membership.priceAmount, membership.interval)}</DialogDescription>
      </DialogHeader>
      {members.isPending ? (
        <TableSkeleton label={m.members.loading} />
      ) : members.isError ? (
        <LoadFailedInline message={m.members.loadFailed} onRetry={() => void members.refetch()} retrying={members.isRefetching} />
      ) : (
        <div className="grid min-w-0 gap-4">
          <dl className="grid grid-cols-3 gap-3 text-sm" data-testid="membership-figures">
            <Figure label="Monthly recurring revenue" value={formatPounds(figures.mrrAmount)} />
            <Figure label="Paying members" value={String(figures.paying)} />
            <Figure label="Ended in the last 30 days" value={String(figures.endedLast30Days)} />
          </dl>
          {items.length === 0 ? (
            <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">{m.members.empty}</p>
          ) : (
            <div className="max-h-[50vh] overflow-auto">
              <Table label="Members" className="max-sm:block">
                <TableHeader className="max-sm:sr-only">
                  <TableRow>
                    <TableHead>Email</TableHead>
                    <TableHead>Status</TableHead>
                    <TableHead>Renews or ends</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody className="max-sm:grid">
                  {items.map((member, index) => (
                    <TableRow key={`${member.email}-${index}`} className="max-sm:grid max-sm:gap-0.5 max-sm:py-2">
                      <TableCell className="max-w-56 [overflow-wrap:anywhere] whitespace-normal max-sm:block max-sm:max-w-none max-sm:p-0 max-sm:font-medium">{member.email || 'Email not known yet'}</TableCell>
                      <TableCell className="whitespace-nowrap max-sm:block max-sm:p-0 max-sm:text-muted-foreground">{memberStatusLabel[member.status]}</TableCell>
                      <TableCell className="whitespace-nowrap max-sm:block max-sm:p-0 max-sm:text-muted-foreground">{renewal(member)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </div>
          )}
          <LoadMore pages={members} label={m.members.loadMore} />
        </div>
      )}
    </>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="grid gap-1 rounded-lg bg-muted/60 p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums">{value}</dd>
    </div>
  );
}

/** 'Renews on 20 Dec 2026', 'Ends on ...' (cancelling at the period's end), 'Ended on ...', or a dash without a period. */
const renewal = (member: { status: string; currentPeriodEnd: string | null; cancelAtPeriodEnd: boolean }): string => {
  if (member.currentPeriodEnd === null) return '-';
  const day = formatDay(member.currentPeriodEnd);
  if (member.status === 'canceled' || member.status === 'unpaid') return `Ended on ${day}`;
  return member.cancelAtPeriodEnd ? `Ends on ${day}` : `Renews on ${day}`;
};
