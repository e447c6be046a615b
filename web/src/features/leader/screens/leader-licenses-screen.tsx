import { useInfiniteQuery } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { LoadMore } from '@/components/ui/load-more.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { TableSkeleton } from '@/components/ui/skeleton.tsx';
import { leaderLicensePagesQueryOptions } from '../api/leader-queries.ts';
import { LicensesTable } from '../components/licenses-table.tsx';
import { leaderMessages } from '../leader-messages.ts';

const m = leaderMessages.licenses;

/**
 * /dashboard/leader/licenses: the course seats licensed to the leader's organisation (granted by a creator or bought
 * on a course's page), with the seats in use, the end date and the status; 'Manage seats' opens its group. Newest
 * first, a page at a time: 'Load more' for the next.
 */
export function LeaderLicensesScreen() {
  const licenses = useInfiniteQuery(leaderLicensePagesQueryOptions());
  const items = licenses.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title={m.title} description={m.description} />
      {licenses.isPending ? (
        <TableSkeleton label={m.loading} />
      ) : licenses.isError ? (
        <LoadFailed message={m.loadFailed} onRetry={() => void licenses.refetch()} retrying={licenses.isRefetching} retryLabel={m.retry} />
      ) : items.length === 0 ? (
        <EmptyState icon={KeyRound} title={m.empty.title}>
          {m.empty.description}
        </EmptyState>
      ) : (
        // Below 1280 px the table folds into cards of its own (licenses-table.tsx): no card around them.
        <Card className="max-xl:border-0 max-xl:bg-transparent max-xl:shadow-none">
          <CardContent className="grid gap-4 pt-6 max-xl:p-0">
            <LicensesTable licenses={items} />
            <LoadMore pages={licenses} label={m.loadMore} />
          </CardContent>
        </Card>
      )}
    </div>
  );
}
