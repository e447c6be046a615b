import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { License, Member } from '@contracts/licenses.ts';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { LoadMore } from '@/components/ui/load-more.tsx';
import { TableSkeleton } from '@/components/ui/skeleton.tsx';
import { membersQueryOptions } from '../api/leader-queries.ts';
import { isEnded } from '../license-format.ts';
import { leaderMessages as m } from '../leader-messages.ts';
import { MembersTable } from './members-table.tsx';
import { RemoveMemberDialog } from './remove-member-dialog.tsx';

/** The 'Members' part of a group: loading, a failure with 'Try again', none yet, or the table with 'Remove' behind a confirmation, a page at a time ('Load more'). */
export function GroupMembers({ license }: { license: License }) {
  const members = useInfiniteQuery(membersQueryOptions(license.id));
  const items = members.data?.pages.flatMap((page) => page.items) ?? [];
  const [removing, setRemoving] = useState<Member>();
  const ended = isEnded(license);

  return (
    <section className="grid gap-3 *:min-w-0">
      <h2 className="text-xl font-semibold tracking-tight">
        {m.members.title}
      </h2>
      {members.isPending ? (
        <TableSkeleton label={m.members.loading} rows={3} />
      ) : members.isError ? (
        <LoadFailed message={m.members.loadFailed} onRetry={() => void members.refetch()} retrying={members.isRefetching} retryLabel={m.groups.retry} />
      ) : items.length === 0 ? (
        <p className="rounded-xl border border-dashed bg-subtle px-4 py-8 text-center text-sm text-muted-foreground">{ended ? m.members.emptyEnded : m.members.empty}</p>
      ) : (
        // Below 1280 px the table folds into cards of its own (members-table.tsx): no card around them.
        <Card className="max-xl:border-0 max-xl:bg-transparent max-xl:shadow-none">
          <CardContent className="grid gap-4 pt-6 max-xl:p-0">
            <MembersTable license={license} members={items} actions={!ended} onRemove={setRemoving} />
            <LoadMore pages={members} label={m.members.loadMore} />
          </CardContent>
        </Card>
      )}
      <RemoveMemberDialog license={license} member={removing} onDone={() => setRemoving(undefined)} />
    </section>
  );
}
